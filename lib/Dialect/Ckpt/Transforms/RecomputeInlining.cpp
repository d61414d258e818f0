//===- RecomputeInlining.cpp - inline ckpt.recompute bodies ---------------===//

#include "RecomputeInlining.h"

using namespace mlir;
using namespace mlir::ckpt;

LogicalResult mlir::ckpt::checkCheckpointsExpanded(Operation *root,
                                                   StringRef message) {
  WalkResult unexpanded = root->walk([&](CheckpointOp checkpoint) {
    checkpoint.emitOpError(message);
    return WalkResult::interrupt();
  });
  return failure(unexpanded.wasInterrupted());
}

SmallVector<Value> mlir::ckpt::inlineRecomputeBody(RewriterBase &rewriter,
                                                   RecomputeOp recompute,
                                                   ValueRange inputs) {
  Block &body = recompute.getBodyBlock();
  YieldOp yield = recompute.getYield();
  SmallVector<Value> yielded;
  for (Value value : yield.getValues()) {
    auto arg = dyn_cast<BlockArgument>(value);
    yielded.push_back(
        arg && arg.getOwner() == &body ? inputs[arg.getArgNumber()] : value);
  }
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, recompute, inputs);
  return yielded;
}
