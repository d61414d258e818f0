//===- FillValue.h - fills on tensors in their several forms ----*- C++ -*-===//
//
// The value a tensor is filled with, whichever form the fill took: the
// rewrites that make fresh fills (ckpt-convolution-to-gemm) or clone them
// (ckpt-privatize-inits) recognize the same ones.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_FILLVALUE_H
#define CKPT_TRANSFORMS_FILLVALUE_H

#include "mlir/IR/Value.h"

namespace mlir {
class Operation;
class RewriterBase;
} // namespace mlir

namespace mlir::ckpt {

/// The value `tensor` is filled with when its producer is a fill: a
/// linalg.fill, its generic form (upstream's isaFillOpInterface: a scalar
/// input), or the generic the fusion makes of one (no inputs, every
/// element the same value from outside its body); a null value otherwise.
Value getFillValue(Value tensor);

/// Erases `op` (a Linalg op such as a fill, a tensor.empty or a constant)
/// when nothing reads it any more and it has no memory effects, then its
/// operands' producers in turn: the fill an accumulator no longer starts
/// from, and the empty tensor it filled.
void eraseIfUnused(RewriterBase &rewriter, Operation *op);

} // namespace mlir::ckpt

#endif // CKPT_TRANSFORMS_FILLVALUE_H
