//===- CheckpointExpansion.cpp - expand user ckpt.checkpoint regions ------===//
//
// Implements `ckpt-expand-checkpoints` and the expansion ckpt-remat runs
// before it plans.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/Transforms/CheckpointExpansion.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/IR/Phases.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "ckpt-expand-checkpoints"

namespace mlir::ckpt {
#define GEN_PASS_DEF_EXPANDCHECKPOINTSPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

unsigned mlir::ckpt::expandCheckpoints(func::FuncOp func) {
  SmallVector<CheckpointOp> checkpoints;
  for (Operation &op : func.getBody().front())
    if (auto checkpoint = dyn_cast<CheckpointOp>(op))
      checkpoints.push_back(checkpoint);
  if (checkpoints.empty())
    return 0;

  std::optional<DenseSet<Operation *>> backwardOps = findBackwardOps(func);
  auto topLevel = [&](Operation *op) {
    while (op->getParentOp() != func.getOperation())
      op = op->getParentOp();
    return op;
  };

  IRRewriter rewriter(func.getContext());
  for (CheckpointOp checkpoint : checkpoints) {
    // The uses served by recomputation.
    Operation *firstUser = nullptr;
    for (Value result : checkpoint.getResults())
      for (Operation *user : result.getUsers()) {
        Operation *op = topLevel(user);
        if (!firstUser || op->isBeforeInBlock(firstUser))
          firstUser = op;
      }
    SmallVector<OpOperand *> laterUses;
    Operation *firstLaterUser = nullptr;
    for (Value result : checkpoint.getResults())
      for (OpOperand &use : result.getUses()) {
        Operation *op = topLevel(use.getOwner());
        bool later = backwardOps ? backwardOps->contains(op) : op != firstUser;
        if (!later)
          continue;
        laterUses.push_back(&use);
        if (!firstLaterUser || op->isBeforeInBlock(firstLaterUser))
          firstLaterUser = op;
      }

    if (firstLaterUser) {
      // A clone of the whole region, from the same inputs.
      rewriter.setInsertionPoint(firstLaterUser);
      auto recompute = RecomputeOp::create(rewriter, checkpoint.getLoc(),
                                           checkpoint.getResultTypes(),
                                           checkpoint.getInputs());
      IRMapping mapping;
      checkpoint.getBody().cloneInto(&recompute.getBody(), mapping);
      for (OpOperand *use : laterUses)
        use->set(
            recompute.getResult(cast<OpResult>(use->get()).getResultNumber()));
    }

    // The forward computation: the body, inlined in place.
    Block &body = checkpoint.getBodyBlock();
    YieldOp yield = checkpoint.getYield();
    SmallVector<Value> yielded;
    for (Value value : yield.getValues()) {
      auto arg = dyn_cast<BlockArgument>(value);
      yielded.push_back(arg && arg.getOwner() == &body
                            ? checkpoint.getInputs()[arg.getArgNumber()]
                            : value);
    }
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&body, checkpoint, checkpoint.getInputs());
    rewriter.replaceOp(checkpoint, yielded);
  }
  return checkpoints.size();
}

namespace {

struct ExpandCheckpointsPass
    : public mlir::ckpt::impl::ExpandCheckpointsPassBase<
          ExpandCheckpointsPass> {
  void runOnOperation() override {
    if (!getOperation().getBody().empty())
      expandCheckpoints(getOperation());
  }
};

} // namespace
