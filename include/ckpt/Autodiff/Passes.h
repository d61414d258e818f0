//===- Passes.h - automatic differentiation ---------------------*- C++ -*-===//
//
// ckpt-autodiff (registered with registerCkptAutodiffPasses).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_AUTODIFF_PASSES_H
#define CKPT_AUTODIFF_PASSES_H

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ckpt {

#define GEN_PASS_DECL
#include "ckpt/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ckpt/Autodiff/Passes.h.inc"

} // namespace mlir::ckpt

#endif // CKPT_AUTODIFF_PASSES_H
