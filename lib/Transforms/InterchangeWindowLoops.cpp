//===- InterchangeWindowLoops.cpp - contiguous loop of window ops inside --===//
//
// Implements `ckpt-interchange-window-loops`: a generic reading a window
// runs the parallel loop over the most operands' contiguous dimension
// innermost (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "ckpt-interchange-window-loops"

namespace mlir::ckpt {
#define GEN_PASS_DEF_INTERCHANGEWINDOWLOOPSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// Whether an input of `op` reads a window: one of its indices is a sum of
/// loop dimensions (a convolution's oh * stride + kh * dilation).
bool readsWindow(linalg::GenericOp op) {
  for (OpOperand *input : op.getDpsInputOperands())
    for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults())
      if (expr.getKind() == AffineExprKind::Add)
        return true;
  return false;
}

/// For each loop dimension of `op`, the number of operands whose innermost
/// index involves it: how many contiguous accesses running it innermost
/// makes.
SmallVector<int64_t> contiguousAccesses(linalg::GenericOp op) {
  SmallVector<int64_t> count(op.getNumLoops(), 0);
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() == 0)
      continue;
    llvm::SmallBitVector involved(op.getNumLoops());
    map.getResults().back().walk([&](AffineExpr expr) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        involved.set(dim.getPosition());
    });
    for (unsigned dim : involved.set_bits())
      ++count[dim];
  }
  return count;
}

struct InterchangeWindowLoopsPass
    : public mlir::ckpt::impl::InterchangeWindowLoopsPassBase<
          InterchangeWindowLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> windows;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.getNumLoops() > 1 && readsWindow(op))
        windows.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : windows) {
      SmallVector<int64_t> trips = op.getStaticLoopRanges();
      SmallVector<int64_t> accesses = contiguousAccesses(op);
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      unsigned innermost = op.getNumLoops() - 1;
      // The best parallel loop; a dynamic trip count is taken as long.
      auto better = [&](unsigned a, unsigned b) {
        int64_t tripA = ShapedType::isDynamic(trips[a]) ? INT64_MAX : trips[a];
        int64_t tripB = ShapedType::isDynamic(trips[b]) ? INT64_MAX : trips[b];
        return std::make_pair(accesses[a], tripA) >
               std::make_pair(accesses[b], tripB);
      };
      std::optional<unsigned> best;
      for (unsigned dim = 0; dim < op.getNumLoops(); ++dim)
        if (iterators[dim] == utils::IteratorType::parallel &&
            (!best || better(dim, *best)))
          best = dim;
      if (!best || *best == innermost || !better(*best, innermost))
        continue;
      SmallVector<unsigned> order;
      for (unsigned dim = 0; dim < op.getNumLoops(); ++dim)
        if (dim != *best)
          order.push_back(dim);
      order.push_back(*best);
      LDBG() << "loop " << *best << " innermost: " << op.getLoc();
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError() << "ckpt-interchange-window-loops: could not "
                          "interchange the loops of this op";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
