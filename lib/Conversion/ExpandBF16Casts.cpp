//===- ExpandBF16Casts.cpp - bf16 casts as integer arithmetic -------------===//
//
// Implements `ckpt-expand-bf16-casts`: `arith.extf` from and `arith.truncf`
// to bf16 become integer shifts and rounding (upstream's bf16 expansion
// patterns alone), so the CPU build needs no compiler-rt/libgcc bf16 helper.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "ckpt-expand-bf16-casts"

namespace mlir::ckpt {
#define GEN_PASS_DEF_EXPANDBF16CASTSPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct ExpandBF16CastsPass
    : public mlir::ckpt::impl::ExpandBF16CastsPassBase<ExpandBF16CastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
