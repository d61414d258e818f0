//===- CheckpointExpansion.h - expand ckpt.checkpoint regions ---*- C++ -*-===//

#ifndef CKPT_DIALECT_CKPT_TRANSFORMS_CHECKPOINTEXPANSION_H
#define CKPT_DIALECT_CKPT_TRANSFORMS_CHECKPOINTEXPANSION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ckpt {

/// Expands every `ckpt.checkpoint` of `func` with the semantics of
/// `torch.utils.checkpoint`: only the region's inputs are kept. The body is
/// inlined where the region was, for its forward uses; the uses of its
/// results in the backward pass get a `ckpt.recompute` clone of the whole
/// body, placed right before the first of them. Backward uses are those of
/// ops marked `ckpt.phase = backward` or depending on a `ckpt.tangent`
/// argument; without phase markers, every use after the first use of any of
/// the region's results. Returns the number of regions expanded.
unsigned expandCheckpoints(func::FuncOp func);

} // namespace mlir::ckpt

#endif // CKPT_DIALECT_CKPT_TRANSFORMS_CHECKPOINTEXPANSION_H
