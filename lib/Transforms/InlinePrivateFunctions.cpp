//===- InlinePrivateFunctions.cpp - inline calls to private functions -----===//
//
// Implements `ckpt-inline-private-functions`: the upstream inliner, limited to
// private callees and without a simplification pipeline.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/Inliner.h"

#define DEBUG_TYPE "ckpt-inline-private-functions"

namespace mlir::ckpt {
#define GEN_PASS_DEF_INLINEPRIVATEFUNCTIONSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// Returns true when the call resolves to a private function.
bool isCallToPrivateFunction(const Inliner::ResolvedCall &resolved) {
  Region *callable = resolved.targetNode->getCallableRegion();
  if (!callable)
    return false;
  auto symbol = dyn_cast<SymbolOpInterface>(callable->getParentOp());
  return symbol && symbol.isPrivate();
}

struct InlinePrivateFunctionsPass
    : public mlir::ckpt::impl::InlinePrivateFunctionsPassBase<
          InlinePrivateFunctionsPass> {
  void runOnOperation() override {
    CallGraph &callGraph = getAnalysis<CallGraph>();
    InlinerConfig config;
    // No simplification: keep the program as written apart from the calls.
    config.setDefaultPipeline([](OpPassManager &) {});
    auto runPipeline = [this](Pass &, OpPassManager &pipeline, Operation *op) {
      return this->runPipeline(pipeline, op);
    };
    Inliner inliner(getOperation(), callGraph, *this, getAnalysisManager(),
                    runPipeline, config, isCallToPrivateFunction);
    if (failed(inliner.doInlining()))
      return signalPassFailure();
    markAnalysesPreserved<CallGraph>();
  }
};

} // namespace
