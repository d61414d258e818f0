//===- CkptOps.h - ckpt dialect operations ----------------------*- C++ -*-===//
//
// Operations of the ckpt dialect: ckpt.recompute, ckpt.checkpoint, ckpt.yield.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_IR_CKPTOPS_H
#define CKPT_DIALECT_CKPT_IR_CKPTOPS_H

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ckpt {
class YieldOp;
} // namespace mlir::ckpt

#define GET_OP_CLASSES
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h.inc"

#endif // CKPT_DIALECT_CKPT_IR_CKPTOPS_H
