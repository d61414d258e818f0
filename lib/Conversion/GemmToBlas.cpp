//===- GemmToBlas.cpp - matmul-like linalg ops to BLAS calls --------------===//
//
// Implements `ckpt-gemm-to-blas`: plain f32 and f64 contractions on memrefs
// become calls to the GEMMs of libckpt_blas_runtime (CBLAS); everything
// else is left to the loops of the CPU pipeline.
//
//===----------------------------------------------------------------------===//

#include "GemmCalls.h"

#include "ckpt/Conversion/Passes.h"

#include <limits>

namespace mlir::ckpt {
#define GEN_PASS_DEF_GEMMTOBLASPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct GemmToBlasPass
    : public mlir::ckpt::impl::GemmToBlasPassBase<GemmToBlasPass> {
  using GemmToBlasPassBase::GemmToBlasPassBase;

  void runOnOperation() override {
    if (threads < 1 || threads > std::numeric_limits<int32_t>::max()) {
      getOperation()->emitError()
          << "ckpt-gemm-to-blas: num-threads must be at least 1, got "
          << threads.getValue();
      return signalPassFailure();
    }
    ckpt::GemmLibrary blas;
    blas.trailingArguments.push_back(static_cast<int32_t>(threads));
    blas.prefix = "ckpt_cpu_";
    blas.variant = [](Type a, Type b, Type c) -> FailureOr<std::string> {
      if (a.isF32() && b.isF32() && c.isF32())
        return std::string("f32");
      if (a.isF64() && b.isF64() && c.isF64())
        return std::string("f64");
      return failure();
    };
    if (failed(ckpt::rewriteGemmsToCalls(getOperation(), blas)))
      signalPassFailure();
  }
};

} // namespace
