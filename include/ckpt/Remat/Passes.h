//===- Passes.h - rematerialization passes ----------------------*- C++ -*-===//
//
// ckpt-remat and ckpt-report (registered with registerCkptRematPasses).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_REMAT_PASSES_H
#define CKPT_REMAT_PASSES_H

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Remat/RematOptions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ckpt {

#define GEN_PASS_DECL
#include "ckpt/Remat/Passes.h.inc"

/// `ckpt-remat` with `options` (the pass-pipeline form of the same options:
/// `createRematPass()` and `--ckpt-remat="..."`).
std::unique_ptr<Pass> createRematPass(const RematOptions &options);

#define GEN_PASS_REGISTRATION
#include "ckpt/Remat/Passes.h.inc"

} // namespace mlir::ckpt

#endif // CKPT_REMAT_PASSES_H
