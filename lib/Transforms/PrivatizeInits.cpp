//===- PrivatizeInits.cpp - one destination tensor per writer -------------===//
//
// Implements `ckpt-privatize-inits`: a linalg.fill or tensor.empty shared as
// the destination of several destination-style ops is cloned before them,
// so that no buffer is shared by values with unrelated lifetimes (see the
// pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/FillValue.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#define DEBUG_TYPE "ckpt-privatize-inits"

namespace mlir::ckpt {
#define GEN_PASS_DEF_PRIVATIZEINITSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// The destination uses of \p value: operands that destination-style ops
/// write into.
SmallVector<OpOperand *> destinationUses(Value value) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : value.getUses())
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner()))
      if (dps.isDpsInit(&use))
        uses.push_back(&use);
  return uses;
}

/// Gives \p clone the phase of the op it serves, when that op has one.
void takePhase(Operation *clone, Operation *user) {
  StringRef phase = CkptDialect::getPhaseAttrName();
  if (Attribute attr = user->getAttr(phase))
    clone->setAttr(phase, attr);
}

/// A clone of \p empty right before \p user, in the user's phase.
Value cloneEmptyBefore(OpBuilder &builder, Operation *empty, Operation *user) {
  builder.setInsertionPoint(user);
  Operation *clone = builder.clone(*empty);
  takePhase(clone, user);
  return clone->getResult(0);
}

/// Whether \p op fills a tensor.empty with one value, in any of the forms
/// getFillValue recognizes (the fusion makes generics of fills).
bool isFillOfEmpty(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
         op.getNumDpsInits() == 1 &&
         op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() &&
         getFillValue(op->getResult(0));
}

struct PrivatizeInitsPass
    : public mlir::ckpt::impl::PrivatizeInitsPassBase<PrivatizeInitsPass> {
  void runOnOperation() override {
    // Fills of a tensor.empty: cloning both recreates the value wherever the
    // fill value is visible, which it is at every user of the fill.
    SmallVector<linalg::LinalgOp> fills;
    getOperation()->walk([&](linalg::LinalgOp fill) {
      if (isFillOfEmpty(fill) && !fill->hasOneUse())
        fills.push_back(fill);
    });

    OpBuilder builder(&getContext());
    for (linalg::LinalgOp fill : fills) {
      Value destination = fill.getDpsInits()[0];
      Operation *empty = destination.getDefiningOp();
      for (OpOperand *use : destinationUses(fill->getResult(0))) {
        Operation *user = use->getOwner();
        IRMapping mapping;
        mapping.map(destination, cloneEmptyBefore(builder, empty, user));
        Operation *privateFill = builder.clone(*fill, mapping);
        takePhase(privateFill, user);
        use->set(privateFill->getResult(0));
      }
      if (!fill->use_empty())
        continue;
      fill->erase();
      if (empty->use_empty())
        empty->erase();
    }

    // Empties written into by several ops: every writer but the first gets
    // its own.
    SmallVector<tensor::EmptyOp> empties;
    DenseMap<Operation *, unsigned> position;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      position[op] = position.size();
      if (auto empty = dyn_cast<tensor::EmptyOp>(op);
          empty && destinationUses(empty.getResult()).size() > 1)
        empties.push_back(empty);
    });
    for (tensor::EmptyOp empty : empties) {
      SmallVector<OpOperand *> uses = destinationUses(empty.getResult());
      llvm::sort(uses, [&](OpOperand *a, OpOperand *b) {
        return position.lookup(a->getOwner()) < position.lookup(b->getOwner());
      });
      for (OpOperand *use : llvm::drop_begin(uses))
        use->set(cloneEmptyBefore(builder, empty, use->getOwner()));
    }
  }
};

} // namespace
