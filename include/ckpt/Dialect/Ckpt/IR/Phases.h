//===- Phases.h - the forward/backward split of a training step -*- C++ -*-===//
//
// Which ops of a training step belong to its backward pass, from the ckpt
// dialect's markers (`ckpt.phase`, `ckpt.tangent`): what the memory
// analysis reports and checkpoint expansion recomputes for.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_PHASES_H
#define CKPT_DIALECT_CKPT_IR_PHASES_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::ckpt {

/// The ops of the body of `func` in the backward pass, from its phase
/// markers: an op marked `ckpt.phase = backward`, or unmarked and using (in
/// its operands or inside its regions) a `ckpt.tangent` argument or a result
/// of a backward op. std::nullopt when the function has no markers (no
/// `ckpt.phase` on any op, no `ckpt.tangent` argument).
std::optional<DenseSet<Operation *>> findBackwardOps(FunctionOpInterface func);

} // namespace mlir::ckpt

#endif // CKPT_DIALECT_CKPT_IR_PHASES_H
