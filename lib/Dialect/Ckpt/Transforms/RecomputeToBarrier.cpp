//===- RecomputeToBarrier.cpp - ckpt.recompute for downstream compilers ---===//
//
// Implements `ckpt-recompute-to-barrier`: the tensor-level lowering of
// recompute regions for compilers other than ckpt's own pipelines (IREE,
// XLA-like stacks). Their CSE would merge an inlined recomputation with the
// computation it repeats; an optimization barrier on the region's inputs
// (and results) keeps the two apart, as JAX's `prevent_cse` does.
//
//===----------------------------------------------------------------------===//

#include "RecomputeInlining.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-recompute-to-barrier"

namespace mlir::ckpt {
#define GEN_PASS_DEF_RECOMPUTETOBARRIERPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// `values` through `barrier` ops, one per value (IREE's stream lowering
/// rejects a barrier mixing arguments and computed values): their results,
/// of the same types.
SmallVector<Value> throughBarrier(RewriterBase &rewriter, Location loc,
                                  OperationName barrier, ValueRange values) {
  SmallVector<Value> results;
  for (Value value : values) {
    OperationState state(loc, barrier);
    state.addOperands(value);
    state.addTypes(value.getType());
    results.push_back(rewriter.create(state)->getResult(0));
  }
  return results;
}

struct RecomputeToBarrierPass
    : public mlir::ckpt::impl::RecomputeToBarrierPassBase<
          RecomputeToBarrierPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    StringRef name = barrier;
    if (!name.contains('.') || name.starts_with(".") || name.ends_with(".")) {
      emitError(module.getLoc())
          << "ckpt-recompute-to-barrier: barrier must name an op as "
             "'dialect.op' (such as util.optimization_barrier), got '"
          << name << "'";
      return signalPassFailure();
    }
    if (failed(checkCheckpointsExpanded(
            module, "must be expanded (ckpt-expand-checkpoints or "
                    "ckpt-remat) before ckpt-recompute-to-barrier")))
      return signalPassFailure();
    OperationName barrierName(name, context);
    // The barrier's dialect is the downstream compiler's: where it is not
    // loaded, the op is created unregistered and printed in generic form,
    // which that compiler parses.
    if (!barrierName.isRegistered())
      context->allowUnregisteredDialects();

    // Post-order: inner regions are lowered before the regions holding them.
    SmallVector<RecomputeOp> regions;
    module.walk([&](RecomputeOp op) { regions.push_back(op); });
    IRRewriter rewriter(context);
    for (RecomputeOp recompute : regions) {
      LDBG() << "recompute at " << recompute.getLoc();
      rewriter.setInsertionPoint(recompute);
      SmallVector<Value> inputs = throughBarrier(
          rewriter, recompute.getLoc(), barrierName, recompute.getInputs());
      SmallVector<Value> yielded =
          inlineRecomputeBody(rewriter, recompute, inputs);
      if (barrierResults)
        yielded =
            throughBarrier(rewriter, recompute.getLoc(), barrierName, yielded);
      rewriter.replaceOp(recompute, yielded);
    }
  }
};

} // namespace
