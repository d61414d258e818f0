//===- ConvolutionToGemm.h - what ckpt-convolution-to-gemm reads -*- C++ -*-===//
//
// Decisions of ckpt-convolution-to-gemm that the passes before it plan for.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_CONVOLUTIONTOGEMM_H
#define CKPT_TRANSFORMS_CONVOLUTIONTOGEMM_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ckpt {

/// Whether ckpt-convolution-to-gemm multiplies the filters of `conv` from
/// the tensor they are a (1, 0, 2, 3) swap of, where that tensor is stored
/// (a weight gradient's output gradient: one image at a time, or as the
/// transposed matrix of a 1x1 window), so that the swap goes unused.
bool readsSwappedFiltersWhereStored(linalg::Conv2DNchwFchwOp conv);

} // namespace mlir::ckpt

#endif // CKPT_TRANSFORMS_CONVOLUTIONTOGEMM_H
