//===- LegalizeNarrowFloatCasts.cpp - bf16/f16 casts LLVM can lower -------===//
//
// Implements `ckpt-legalize-narrow-float-casts`: `arith.extf` from and
// `arith.truncf` to bf16 become integer shifts and rounding (upstream's bf16
// expansion patterns alone), so the CPU build needs no compiler-rt/libgcc
// bf16 helper, and the remaining narrow float casts lose the fastmath flags
// that LLVM's fpext/fptrunc cannot take.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "ckpt-legalize-narrow-float-casts"

namespace mlir::ckpt {
#define GEN_PASS_DEF_LEGALIZENARROWFLOATCASTSPASS
#include "ckpt/Conversion/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct LegalizeNarrowFloatCastsPass
    : public mlir::ckpt::impl::LegalizeNarrowFloatCastsPassBase<
          LegalizeNarrowFloatCastsPass> {
  void runOnOperation() override {
    // Most programs have no narrow float: nothing to drive patterns over.
    auto isNarrowCast = [](Operation *op) {
      if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
        return false;
      Type in = getElementTypeOrSelf(op->getOperand(0).getType());
      Type out = getElementTypeOrSelf(op->getResult(0).getType());
      return in.isBF16() || in.isF16() || out.isBF16() || out.isF16();
    };
    bool hasCasts = getOperation()
                        ->walk([&](Operation *op) {
                          return isNarrowCast(op) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
                        })
                        .wasInterrupted();
    if (!hasCasts)
      return;
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    // No folding: a truncation and the extension after it (the emulation's
    // round trip between two narrow ops) would fold away, and the narrow
    // value would no longer be rounded after each op as PyTorch rounds it.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      signalPassFailure();
      return;
    }
    // The conversion to LLVM would carry the flags over as an arith
    // attribute on llvm.fpext/llvm.fptrunc, which have none.
    getOperation()->walk([&](Operation *op) {
      if (isNarrowCast(op))
        op->removeAttr("fastmath");
    });
  }
};

} // namespace
