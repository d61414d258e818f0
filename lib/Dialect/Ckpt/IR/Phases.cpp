//===- Phases.cpp - the forward/backward split of a training step ---------===//

#include "ckpt/Dialect/Ckpt/IR/Phases.h"

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"

using namespace mlir;
using namespace mlir::ckpt;

std::optional<DenseSet<Operation *>>
mlir::ckpt::findBackwardOps(FunctionOpInterface func) {
  DenseSet<Value> backwardValues;
  for (BlockArgument arg : func.getArguments())
    if (func.getArgAttr(arg.getArgNumber(), CkptDialect::getTangentAttrName()))
      backwardValues.insert(arg);
  bool anyPhaseAttr = false;
  func.walk([&](Operation *op) {
    anyPhaseAttr |= static_cast<bool>(
        op->getAttrOfType<PhaseAttr>(CkptDialect::getPhaseAttrName()));
  });
  if (!anyPhaseAttr && backwardValues.empty())
    return std::nullopt;

  DenseSet<Operation *> backward;
  for (Operation &op : func.getFunctionBody().front()) {
    bool isBackward = false;
    if (auto attr =
            op.getAttrOfType<PhaseAttr>(CkptDialect::getPhaseAttrName()))
      isBackward = attr.getValue() == Phase::Backward;
    else
      // Any value used inside the op (its operands or captured by its
      // regions) that comes from the backward pass makes it backward.
      op.walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          isBackward |= backwardValues.contains(operand);
      });
    if (isBackward) {
      backward.insert(&op);
      for (Value result : op.getResults())
        backwardValues.insert(result);
    }
  }
  return backward;
}
