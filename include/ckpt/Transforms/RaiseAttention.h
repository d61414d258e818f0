//===- RaiseAttention.h - unfused attention to ckpt.attention ---*- C++ -*-===//
//
// The raising that ckpt-raise-attention runs and ckpt-autodiff applies before
// differentiating.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_RAISEATTENTION_H
#define CKPT_TRANSFORMS_RAISEATTENTION_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::ckpt {

/// Adds the pattern that rewrites `batch_matmul(softmax(mask(scale *
/// batch_matmul(Q, Kt))), V)` (each intermediate used once) into
/// `ckpt.attention`.
void populateRaiseAttentionPatterns(RewritePatternSet &patterns);

/// Raises every unfused attention under `root`; the softmax, the score
/// matmuls and the mask become dead and are erased.
LogicalResult raiseAttention(Operation *root);

} // namespace mlir::ckpt

#endif // CKPT_TRANSFORMS_RAISEATTENTION_H
