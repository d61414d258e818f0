//===- Passes.h - tensor preparation and checks -----------------*- C++ -*-===//
//
// The tensor stage of the pipelines and the lowering check (registered with
// registerCkptTransformsPasses).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_PASSES_H
#define CKPT_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ckpt {

#define GEN_PASS_DECL
#include "ckpt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ckpt/Transforms/Passes.h.inc"

} // namespace mlir::ckpt

#endif // CKPT_TRANSFORMS_PASSES_H
