//===- LowerRecompute.cpp - inline ckpt.recompute regions -----------------===//
//
// Implements `ckpt-lower-recompute`: replaces each recompute region by its
// body once nothing can merge the recomputation back (after bufferization).
//
//===----------------------------------------------------------------------===//

#include "RecomputeInlining.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-lower-recompute"

namespace mlir::ckpt {
#define GEN_PASS_DEF_LOWERRECOMPUTEPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Replaces `recompute` by its body. Bufferization leaves `to_tensor` views
/// of the region arguments behind; those that are dead after inlining are
/// erased with it.
void inlineRecompute(RewriterBase &rewriter, RecomputeOp recompute) {
  SmallVector<Operation *> inlined;
  for (Operation &op : recompute.getBodyBlock().without_terminator())
    inlined.push_back(&op);
  SmallVector<Value> replacements =
      inlineRecomputeBody(rewriter, recompute, recompute.getInputs());
  rewriter.replaceOp(recompute, replacements);
  for (Operation *op : llvm::reverse(inlined))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
}

struct LowerRecomputePass
    : public mlir::ckpt::impl::LowerRecomputePassBase<LowerRecomputePass> {
  void runOnOperation() override {
    if (failed(checkCheckpointsExpanded(
            getOperation(),
            "must be expanded by the ckpt-remat pass before lowering")))
      return signalPassFailure();

    // Post-order: inner regions are inlined before the regions holding them.
    SmallVector<RecomputeOp> regions;
    getOperation()->walk([&](RecomputeOp op) { regions.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (RecomputeOp recompute : regions) {
      LDBG() << "inlining " << recompute->getName() << " at "
             << recompute.getLoc();
      rewriter.setInsertionPoint(recompute);
      inlineRecompute(rewriter, recompute);
    }
  }
};

} // namespace
