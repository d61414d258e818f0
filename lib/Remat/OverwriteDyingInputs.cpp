//===- OverwriteDyingInputs.cpp - elementwise results in dying inputs -----===//
//
// Implements `ckpt-overwrite-dying-inputs`: an elementwise linalg.generic
// writes its result into an input that dies there instead of a new buffer.
// The remat planner models the tie (RematGraph: the node's overwritable
// input); one-shot bufferization's own analysis decides whether each tie is
// in place, and a tie it would copy is undone.
//
//===----------------------------------------------------------------------===//

#include "RematSupport.h"

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Remat/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_OVERWRITEDYINGINPUTSPASS
#include "ckpt/Remat/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// True when nothing reads `value` after `op` (both in the same block):
/// every user, or the ancestor of a nested user in that block, is `op` or
/// comes before it.
bool diesAt(Value value, Operation *op) {
  Block *block = op->getBlock();
  for (Operation *user : value.getUsers()) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock)
      return false;
    if (inBlock == op) {
      // Read inside the payload (a gather of other elements): the write
      // could clobber them.
      if (user != op)
        return false;
      continue;
    }
    if (!inBlock->isBeforeInBlock(op))
      return false;
  }
  return true;
}

/// The input `generic` may write its result into, or null.
OpOperand *findDyingInput(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1 || generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return nullptr;
  OpOperand *init = generic.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      generic.payloadUsesValueFromOperand(init))
    return nullptr;
  AffineMap written = generic.getMatchingIndexingMap(init);
  if (!written.isPermutation())
    return nullptr;
  Type resultType = generic->getResult(0).getType();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value value = input->get();
    if (value.getType() != resultType ||
        generic.getMatchingIndexingMap(input) != written)
      continue;
    // Read once, computed here: not an argument (the caller's buffer), not
    // a reshape or slice (its base may be read later).
    if (llvm::count_if(generic.getDpsInputOperands(), [&](OpOperand *other) {
          return other->get() == value;
        }) != 1)
      continue;
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != generic->getBlock() ||
        isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
            tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp>(def))
      continue;
    if (diesAt(value, generic))
      return input;
  }
  return nullptr;
}

struct OverwriteDyingInputsPass
    : public mlir::ckpt::impl::OverwriteDyingInputsPassBase<
          OverwriteDyingInputsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The ties, with the empty tensor each replaced.
    SmallVector<std::pair<linalg::GenericOp, Value>> ties;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (Operation &op : func.getBody().front())
        if (auto generic = dyn_cast<linalg::GenericOp>(op))
          if (OpOperand *input = findDyingInput(generic)) {
            OpOperand *init = generic.getDpsInitOperand(0);
            ties.emplace_back(generic, init->get());
            init->set(input->get());
          }
    }
    if (ties.empty())
      return;
    // Bufferization decides: a tie it would not make in place (the input
    // aliases a buffer read later) gets its empty tensor back.
    FailureOr<std::unique_ptr<BufferizationForecast>> forecast =
        BufferizationForecast::analyze(module);
    for (auto [generic, empty] : ties) {
      OpOperand *init = generic.getDpsInitOperand(0);
      if (succeeded(forecast) && (*forecast)->isInPlace(*init))
        continue;
      init->set(empty);
    }
    llvm::SetVector<Operation *> empties;
    for (auto [generic, empty] : ties)
      empties.insert(empty.getDefiningOp());
    for (Operation *empty : empties)
      if (empty->use_empty())
        empty->erase();
  }
};

} // namespace
