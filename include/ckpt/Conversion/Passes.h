//===- Passes.h - lowerings to GPU kernels and calls ------------*- C++ -*-===//
//
// GPU mapping, cuBLAS calls, device allocations and module merging
// (registered with registerCkptConversionPasses).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_CONVERSION_PASSES_H
#define CKPT_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ckpt {

#define GEN_PASS_DECL
#include "ckpt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ckpt/Conversion/Passes.h.inc"

} // namespace mlir::ckpt

#endif // CKPT_CONVERSION_PASSES_H
