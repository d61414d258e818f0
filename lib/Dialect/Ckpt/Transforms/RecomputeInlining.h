//===- RecomputeInlining.h - inline ckpt.recompute bodies --------*- C++
//-*-===//
//
// What ckpt-lower-recompute (on buffers, before deallocation) and
// ckpt-recompute-to-barrier (on tensors, for other compilers) share.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_DIALECT_CKPT_TRANSFORMS_RECOMPUTEINLINING_H
#define CKPT_LIB_DIALECT_CKPT_TRANSFORMS_RECOMPUTEINLINING_H

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::ckpt {

/// Fails, with `message` on the op, at the first `ckpt.checkpoint` nested in
/// `root`: a user checkpoint must be expanded before its recompute regions
/// are lowered, and lowering it silently would drop the user's request.
LogicalResult checkCheckpointsExpanded(Operation *root, StringRef message);

/// Moves the body of `recompute` in front of it, with `inputs` in place of
/// its arguments, and returns the values it yielded (an argument yielded as
/// it is: its input). `recompute` is left for the caller to replace.
SmallVector<Value> inlineRecomputeBody(RewriterBase &rewriter,
                                       RecomputeOp recompute,
                                       ValueRange inputs);

} // namespace mlir::ckpt

#endif // CKPT_LIB_DIALECT_CKPT_TRANSFORMS_RECOMPUTEINLINING_H
