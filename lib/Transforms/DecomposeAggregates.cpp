//===- DecomposeAggregates.cpp - decompose aggregate linalg ops -----------===//
//
// Implements `ckpt-decompose-aggregates`: ops such as linalg.softmax become
// the linalg ops that compute them, so lowering and memory analysis see the
// tensors that are really materialized.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-decompose-aggregates"

namespace mlir::ckpt {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATESPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

struct DecomposeAggregatesPass
    : public mlir::ckpt::impl::DecomposeAggregatesPassBase<
          DecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });

    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface aggregate : aggregates) {
      rewriter.setInsertionPoint(aggregate);
      FailureOr<SmallVector<Value>> values =
          aggregate.decomposeOperation(rewriter);
      if (failed(values) || values->size() != aggregate->getNumResults()) {
        aggregate->emitOpError("could not be decomposed into simpler ops");
        return signalPassFailure();
      }
      LDBG() << "decomposed " << aggregate->getName();
      rewriter.replaceOp(aggregate, *values);
    }
  }
};

} // namespace
