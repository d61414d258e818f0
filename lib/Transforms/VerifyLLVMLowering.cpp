//===- VerifyLLVMLowering.cpp - check a module is fully lowered -----------===//
//
// Implements `ckpt-verify-llvm-lowering`: the final check of the lowering
// pipelines, naming every op that no conversion handled.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSet.h"

#define DEBUG_TYPE "ckpt-verify-llvm-lowering"

namespace mlir::ckpt {
#define GEN_PASS_DEF_VERIFYLLVMLOWERINGPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct VerifyLLVMLoweringPass
    : public mlir::ckpt::impl::VerifyLLVMLoweringPassBase<
          VerifyLLVMLoweringPass> {
  using Base::Base;

  /// True for the GPU ops a host module keeps until translation to LLVM IR.
  bool isAllowedGpuOp(Operation *op) const {
    return allowGpuBinary && isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op);
  }

  /// True for the OpenMP ops the translation to LLVM IR lowers.
  bool isAllowedOpenMPOp(Operation *op) const {
    return allowOpenMP && op->getDialect() &&
           op->getDialect()->getNamespace() == "omp";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringSet<> reported;
    module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()) || isAllowedGpuOp(op) ||
          isAllowedOpenMPOp(op))
        return;
      if (reported.insert(op->getName().getStringRef()).second)
        op->emitError() << "'" << op->getName()
                        << "' was not lowered to the LLVM dialect";
    });
    if (!reported.empty())
      signalPassFailure();
  }
};

} // namespace
