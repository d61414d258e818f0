//===- MergeRepeatedReductions.cpp - one pass over an input per sum -------===//
//
// Implements `ckpt-merge-repeated-reductions`: a reduction computed again
// from the same inputs, into an initial value filled with the same constant,
// is replaced by the first one (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/FillValue.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "ckpt-merge-repeated-reductions"

namespace mlir::ckpt {
#define GEN_PASS_DEF_MERGEREPEATEDREDUCTIONSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Results at most this fraction of the largest input's elements: holding
/// the first result until the second one's readers costs little beside
/// reading that input again.
constexpr int64_t kMinReductionFactor = 8;

/// Whether `op` is a reduction on tensors whose results are small beside
/// its largest input.
bool isSmallReduction(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0)
    return false;
  int64_t largestInput = 0;
  for (Value input : op.getDpsInputs()) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !type.hasStaticShape())
      return false;
    largestInput = std::max(largestInput, type.getNumElements());
  }
  for (Type result : op->getResultTypes()) {
    auto type = cast<RankedTensorType>(result);
    if (!type.hasStaticShape() ||
        type.getNumElements() * kMinReductionFactor > largestInput)
      return false;
  }
  return true;
}

/// Whether `lhs` and `rhs` are fills of tensors of the same type with the
/// same value (one SSA value, or equal constants).
bool areSameFills(Value lhs, Value rhs) {
  if (lhs.getType() != rhs.getType())
    return false;
  Value lhsValue = getFillValue(lhs), rhsValue = getFillValue(rhs);
  if (!lhsValue || !rhsValue)
    return false;
  if (lhsValue == rhsValue)
    return true;
  Attribute lhsConstant, rhsConstant;
  return matchPattern(lhsValue, m_Constant(&lhsConstant)) &&
         matchPattern(rhsValue, m_Constant(&rhsConstant)) &&
         lhsConstant == rhsConstant;
}

/// Whether `later` computes what `earlier` does: the same op, attributes
/// and payload, the same inputs, and initial values that are the same
/// value or the same fill.
bool computesTheSame(linalg::GenericOp earlier, linalg::GenericOp later) {
  if (earlier.getDpsInputs() != later.getDpsInputs())
    return false;
  for (auto [lhs, rhs] :
       llvm::zip_equal(earlier.getDpsInits(), later.getDpsInits()))
    if (lhs != rhs && !areSameFills(lhs, rhs))
      return false;
  // The operands are checked above; inside the payload, values must be the
  // same or correspond (block arguments, results of corresponding ops).
  DenseMap<Value, Value> corresponding;
  auto operandsMatch = [&](Value lhs, Value rhs) -> LogicalResult {
    if (lhs == rhs || corresponding.lookup(lhs) == rhs)
      return success();
    // The ops' own operands at the same position (inputs and inits),
    // compared above.
    for (auto [earlierOperand, laterOperand] :
         llvm::zip_equal(earlier->getOperands(), later->getOperands()))
      if (earlierOperand == lhs && laterOperand == rhs)
        return success();
    return failure();
  };
  auto markCorresponding = [&](Value lhs, Value rhs) {
    corresponding[lhs] = rhs;
  };
  return OperationEquivalence::isEquivalentTo(
      earlier, later, operandsMatch, markCorresponding,
      OperationEquivalence::IgnoreLocations);
}

struct MergeRepeatedReductionsPass
    : public ckpt::impl::MergeRepeatedReductionsPassBase<
          MergeRepeatedReductionsPass> {
  void runOnOperation() override {
    // Earlier reductions by block and first input.
    DenseMap<std::pair<Block *, Value>, SmallVector<linalg::GenericOp>> seen;
    SmallVector<std::pair<linalg::GenericOp, linalg::GenericOp>> merges;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (!isSmallReduction(op) || op.getNumDpsInputs() == 0)
        return;
      auto &earlier = seen[{op->getBlock(), op.getDpsInputs()[0]}];
      for (linalg::GenericOp candidate : earlier) {
        if (computesTheSame(candidate, op)) {
          merges.push_back({candidate, op});
          return;
        }
      }
      earlier.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (auto [kept, repeated] : merges) {
      SmallVector<Operation *> initProducers;
      for (Value init : repeated.getDpsInits())
        initProducers.push_back(init.getDefiningOp());
      rewriter.replaceOp(repeated, kept->getResults());
      // The fills left unread, and the empty tensors they filled.
      for (Operation *producer : initProducers)
        eraseIfUnused(rewriter, producer);
    }
  }
};

} // namespace
