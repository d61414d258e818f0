//===- Passes.h - ckpt dialect transformations ------------------*- C++ -*-===//
//
// Recompute and random lowering, annotation removal, checkpoint expansion
// (registered with registerCkptDialectPasses).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_TRANSFORMS_PASSES_H
#define CKPT_DIALECT_CKPT_TRANSFORMS_PASSES_H

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ckpt {

#define GEN_PASS_DECL
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"

} // namespace mlir::ckpt

#endif // CKPT_DIALECT_CKPT_TRANSFORMS_PASSES_H
