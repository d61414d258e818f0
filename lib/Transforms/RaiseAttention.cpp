//===- RaiseAttention.cpp - unfused attention to ckpt.attention -----------===//
//
// Implements `ckpt-raise-attention` and the patterns ckpt-autodiff applies
// before differentiating. The unfused form
//
//   scores = batch_matmul(Q, Kt)                 (zero-filled init)
//   masked = generic(scores)                     (optional: * scale, / scale,
//                                                 select(j > i, -1e9, s))
//   probs  = softmax(masked) over the last dimension
//   out    = batch_matmul(probs, V)              (zero-filled init)
//
// becomes one ckpt.attention on Q, transpose(Kt) and V, when the scores, the
// masked scores and the probabilities have no other use (otherwise the
// Sq x Sk tensors stay alive anyway, and the raised op would compute them a
// second time).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/RaiseAttention.h"
#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

#define DEBUG_TYPE "ckpt-raise-attention"

namespace mlir::ckpt {
#define GEN_PASS_DEF_RAISEATTENTIONPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// A masked value at or below this is taken as -infinity: exp(mask - max)
/// underflows to 0 in f32 and f64 against any score above mask + 745.
constexpr double kMaskThreshold = -1e9;

/// A batch_matmul with the default operand layout and an init filled with
/// zeros.
bool isPlainBatchMatmul(linalg::BatchMatmulOp op) {
  if (op.getIndexingMapsArray() !=
      linalg::BatchMatmulOp::getDefaultIndexingMaps(op.getContext()))
    return false;
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

/// What the elementwise op between the scores and the softmax does.
struct ScoreTransform {
  double scale = 1.0;
  bool causal = false;
};

/// A float constant `value` is (defined anywhere, e.g. captured by a
/// payload).
std::optional<double> getConstantFloat(Value value) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return attr.getValueAsDouble();
}

/// The predicate of `b ? a` for the predicate `p` of `a ? b`.
arith::CmpIPredicate swapOperands(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::ugt:
    return P::ult;
  case P::ult:
    return P::ugt;
  case P::uge:
    return P::ule;
  case P::ule:
    return P::uge;
  case P::sgt:
    return P::slt;
  case P::slt:
    return P::sgt;
  case P::sge:
    return P::sle;
  case P::sle:
    return P::sge;
  case P::eq:
  case P::ne:
    return p;
  }
  llvm_unreachable("unknown integer predicate");
}

/// How `pred` compares the key index (linalg.index of the last dimension,
/// j) with the query index (the one before, i): true when it is `j > i`
/// (the keys a causal mask hides), false when it is `j <= i` (the keys it
/// keeps), std::nullopt for anything else.
std::optional<bool> isKeyAfterQuery(Value pred, int64_t rank) {
  auto cmp = pred.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  auto lhs = cmp.getLhs().getDefiningOp<linalg::IndexOp>();
  auto rhs = cmp.getRhs().getDefiningOp<linalg::IndexOp>();
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t i = rank - 2, j = rank - 1;
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  // Written as `i ? j`: swap to `j ? i`.
  if (static_cast<int64_t>(lhs.getDim()) == i &&
      static_cast<int64_t>(rhs.getDim()) == j)
    p = swapOperands(p);
  else if (static_cast<int64_t>(lhs.getDim()) != j ||
           static_cast<int64_t>(rhs.getDim()) != i)
    return std::nullopt;
  if (p == P::ugt || p == P::sgt)
    return true;
  if (p == P::ule || p == P::sle)
    return false;
  return std::nullopt;
}

/// Follows the payload's yielded value back to the score argument through
/// positive scalings and one causal mask; fails on anything else.
LogicalResult analyzePayload(Value value, BlockArgument score, int64_t rank,
                             ScoreTransform &transform) {
  if (value == score)
    return success();
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  if (auto mul = dyn_cast<arith::MulFOp>(def)) {
    for (auto [x, c] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
      std::optional<double> factor = getConstantFloat(c);
      if (factor && *factor > 0 && std::isfinite(*factor)) {
        transform.scale *= *factor;
        return analyzePayload(x, score, rank, transform);
      }
    }
    return failure();
  }
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    std::optional<double> divisor = getConstantFloat(div.getRhs());
    if (!divisor || !(*divisor > 0) || !std::isfinite(*divisor))
      return failure();
    transform.scale /= *divisor;
    return analyzePayload(div.getLhs(), score, rank, transform);
  }
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    if (transform.causal)
      return failure();
    auto isMaskValue = [](Value v) {
      std::optional<double> c = getConstantFloat(v);
      return c && *c <= kMaskThreshold;
    };
    std::optional<bool> hides = isKeyAfterQuery(select.getCondition(), rank);
    if (!hides)
      return failure();
    Value masked = *hides ? select.getTrueValue() : select.getFalseValue();
    Value kept = *hides ? select.getFalseValue() : select.getTrueValue();
    if (!isMaskValue(masked))
      return failure();
    transform.causal = true;
    return analyzePayload(kept, score, rank, transform);
  }
  return failure();
}

/// Matches the op between the scores and the softmax: an elementwise
/// generic of the scores alone (its init unread). Returns the scores.
FailureOr<Value> matchScoreTransform(Value masked, ScoreTransform &transform) {
  auto generic = masked.getDefiningOp<linalg::GenericOp>();
  if (!generic)
    return masked; // No scaling, no mask.
  if (generic.getNumDpsInputs() != 1 || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }) ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return failure();
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (failed(analyzePayload(yield.getValues()[0],
                            generic.getBody()->getArgument(0),
                            generic.getNumLoops(), transform)))
    return failure();
  Value scores = generic.getDpsInputs()[0];
  if (!scores.hasOneUse())
    return failure();
  return scores;
}

/// softmax(mask(scale * Q Kt)) V -> ckpt.attention.
struct RaiseUnfusedAttention : public OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp pv,
                                PatternRewriter &rewriter) const override {
    if (!pv.hasPureTensorSemantics() || !isPlainBatchMatmul(pv))
      return rewriter.notifyMatchFailure(pv, "not a plain batch_matmul");
    Value probs = pv.getDpsInputs()[0], value = pv.getDpsInputs()[1];
    auto softmax = probs.getDefiningOp<linalg::SoftmaxOp>();
    if (!softmax || !probs.hasOneUse() || softmax.getDimension() != 2 ||
        !softmax.getInput().hasOneUse())
      return rewriter.notifyMatchFailure(pv, "not probabilities times values");
    ScoreTransform transform;
    FailureOr<Value> scores =
        matchScoreTransform(softmax.getInput(), transform);
    if (failed(scores))
      return rewriter.notifyMatchFailure(pv, "unknown score transform");
    auto qk = scores->getDefiningOp<linalg::BatchMatmulOp>();
    if (!qk || !isPlainBatchMatmul(qk))
      return rewriter.notifyMatchFailure(pv, "scores not Q times K^T");
    Value query = qk.getDpsInputs()[0], keyT = qk.getDpsInputs()[1];
    auto queryType = cast<RankedTensorType>(query.getType());
    if (!isa<Float32Type, Float64Type>(queryType.getElementType()) ||
        cast<RankedTensorType>(value.getType()).getElementType() !=
            queryType.getElementType())
      return rewriter.notifyMatchFailure(pv, "not f32 or f64");

    Location loc = pv.getLoc();
    auto keyTType = cast<RankedTensorType>(keyT.getType());
    SmallVector<int64_t> keyShape{
        keyTType.getDimSize(0), keyTType.getDimSize(2), keyTType.getDimSize(1)};
    Type element = queryType.getElementType();
    Value keyInit = tensor::EmptyOp::create(rewriter, loc, keyShape, element);
    Value key = linalg::TransposeOp::create(rewriter, loc, keyT, keyInit,
                                            ArrayRef<int64_t>{0, 2, 1})
                    .getResult()[0];
    auto outType = cast<RankedTensorType>(pv.getResultTypes()[0]);
    Value outInit =
        tensor::EmptyOp::create(rewriter, loc, outType.getShape(), element);
    Value lseInit = tensor::EmptyOp::create(
        rewriter, loc, outType.getShape().drop_back(), element);
    auto attention = AttentionOp::create(
        rewriter, loc, TypeRange{outType, lseInit.getType()}, query, key, value,
        outInit, lseInit, /*key_mask=*/Value(),
        transform.causal ? rewriter.getUnitAttr() : UnitAttr(),
        rewriter.getF64FloatAttr(transform.scale));
    CkptDialect::copyAnnotations(pv, attention);
    rewriter.replaceOp(pv, attention.getResult(0));
    return success();
  }
};

struct RaiseAttentionPass
    : public mlir::ckpt::impl::RaiseAttentionPassBase<RaiseAttentionPass> {
  void runOnOperation() override {
    if (failed(raiseAttention(getOperation())))
      signalPassFailure();
  }
};

} // namespace

void mlir::ckpt::populateRaiseAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<RaiseUnfusedAttention>(patterns.getContext());
}

LogicalResult mlir::ckpt::raiseAttention(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  populateRaiseAttentionPatterns(patterns);
  // Only the matched ops are rewritten: no folding of unrelated IR.
  GreedyRewriteConfig config;
  config.enableFolding(false);
  return applyPatternsGreedily(root, std::move(patterns), config);
}
