//===- GemmToCublas.cpp - matmul-like linalg ops to cuBLAS calls ----------===//
//
// Implements `ckpt-gemm-to-cublas`: plain contractions on memrefs become
// calls to the GEMMs of libckpt_cuda_runtime (cuBLAS); everything else is
// left to ckpt-map-linalg-to-gpu.
//
//===----------------------------------------------------------------------===//

#include "GemmCalls.h"

#include "ckpt/Conversion/Passes.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_GEMMTOCUBLASPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct GemmToCublasPass
    : public mlir::ckpt::impl::GemmToCublasPassBase<GemmToCublasPass> {
  using Base::Base;

  void runOnOperation() override {
    ckpt::GemmLibrary cublas;
    cublas.prefix = "ckpt_cuda_";
    cublas.variant = [this](Type a, Type b, Type c) -> FailureOr<std::string> {
      if (a.isF32() && b.isF32() && c.isF32())
        return std::string(allowTF32 ? "tf32" : "f32");
      if (a.isBF16() && b.isBF16() && c.isF32())
        return std::string("bf16_f32");
      if (a.isBF16() && b.isBF16() && c.isBF16())
        return std::string("bf16");
      return failure();
    };
    if (failed(ckpt::rewriteGemmsToCalls(getOperation(), cublas)))
      signalPassFailure();
  }
};

} // namespace
