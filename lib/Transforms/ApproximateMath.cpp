//===- ApproximateMath.cpp - f32 math functions as polynomials ------------===//
//
// Implements `ckpt-approximate-math`: f32 `math.exp`, `log`, `log1p`,
// `expm1`, `tanh` and `erf` become upstream MLIR's polynomial
// approximations (arith and `math.fma` only), so that the loops around them
// vectorize instead of calling libm once per element.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct ApproximateMathPass
    : public mlir::ckpt::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // The approximations match f32 (scalar or vector) operands only; f64
    // and what was not widened to f32 stay libm calls.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return llvm::is_contained(
          {math::ExpOp::getOperationName(), math::LogOp::getOperationName(),
           math::Log1pOp::getOperationName(), math::ExpM1Op::getOperationName(),
           math::TanhOp::getOperationName(), math::ErfOp::getOperationName()},
          name);
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
