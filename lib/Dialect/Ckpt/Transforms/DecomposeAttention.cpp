//===- DecomposeAttention.cpp - attention ops to linalg on tensors --------===//
//
// Implements `ckpt-decompose-attention`: the attention ops as linalg.generic
// ops on tensors, for backends without a fused attention lowering (the GPU
// pipeline, IREE). The scores and probabilities become Sq x Sk tensors
// again, but only inside each op's decomposition: what the forward keeps for
// the backward is still the inputs, the output and the log-sum-exp, and the
// gradient recomputes the probabilities from them.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

#define DEBUG_TYPE "ckpt-decompose-attention"

namespace mlir::ckpt {
#define GEN_PASS_DEF_DECOMPOSEATTENTIONPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Builds the generics of one attention op. Loop dimensions: the leading
/// (batch) dimensions, then the query row i, the key j and, for
/// contractions, a channel c.
class AttentionBuilder {
public:
  AttentionBuilder(OpBuilder &b, Location loc, Value query, Value key,
                   Value value, bool causal, double scale, Operation *origin)
      : b(b), loc(loc), causal(causal), origin(origin) {
    auto queryType = cast<RankedTensorType>(query.getType());
    element = queryType.getElementType();
    batchRank = queryType.getRank() - 2;
    batchShape.assign(queryType.getShape().begin(),
                      queryType.getShape().end() - 2);
    rows = queryType.getDimSize(batchRank);
    keys = cast<RankedTensorType>(key.getType()).getDimSize(batchRank);
    scaleValue = constant(scale);
  }

  /// A map from (batch..., i, j, c) — `loops` dimensions — to the batch
  /// dimensions followed by `tail` (indices into the loop dimensions).
  AffineMap map(unsigned loops, ArrayRef<unsigned> tail) {
    SmallVector<AffineExpr> results;
    for (unsigned d = 0; d < batchRank; ++d)
      results.push_back(b.getAffineDimExpr(d));
    for (unsigned d : tail)
      results.push_back(b.getAffineDimExpr(batchRank + d));
    return AffineMap::get(batchRank + loops, 0, results, b.getContext());
  }

  /// A tensor of the batch shape followed by `tail`, filled with `fill`
  /// (or empty when `fill` is null).
  Value init(ArrayRef<int64_t> tail, Value fill = {}) {
    SmallVector<int64_t> shape(batchShape);
    shape.append(tail.begin(), tail.end());
    Value empty = tensor::EmptyOp::create(b, loc, shape, element);
    if (!fill)
      return empty;
    return linalg::FillOp::create(b, loc, fill, empty).getResult(0);
  }

  /// One generic over `loops` dimensions (the last `reductions` of them
  /// reduced) writing `out`.
  Value generic(ValueRange inputs, ArrayRef<AffineMap> inputMaps, Value out,
                AffineMap outMap, unsigned loops, unsigned reductions,
                function_ref<Value(OpBuilder &, ValueRange)> payload) {
    SmallVector<AffineMap> maps(inputMaps);
    maps.push_back(outMap);
    SmallVector<utils::IteratorType> iterators(batchRank + loops,
                                               utils::IteratorType::parallel);
    for (unsigned d = 0; d < reductions; ++d)
      iterators[batchRank + loops - 1 - d] = utils::IteratorType::reduction;
    auto op = linalg::GenericOp::create(
        b, loc, out.getType(), inputs, out, maps, iterators,
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          linalg::YieldOp::create(nested, nestedLoc, payload(nested, args));
        });
    CkptDialect::copyAnnotations(origin, op);
    return op.getResult(0);
  }

  /// scale * sum_c a[i, c] b[j, c] over (i, j, c), with keys after the row
  /// set to -inf when causal and keys where `keyMask` (optional) is false.
  Value maskedScores(Value query, Value key, Value keyMask) {
    Value sums = generic(
        {query, key}, {map(3, {0, 2}), map(3, {1, 2})},
        init({rows, keys}, constant(0.0)), map(3, {0, 1}), 3, 1,
        [&](OpBuilder &nb, ValueRange a) {
          Value product = arith::MulFOp::create(nb, loc, a[0], a[1]);
          return arith::AddFOp::create(nb, loc, a[2], product).getResult();
        });
    SmallVector<Value> inputs{sums};
    SmallVector<AffineMap> maps{map(2, {0, 1})};
    if (keyMask) {
      inputs.push_back(keyMask);
      maps.push_back(map(2, {1}));
    }
    return generic(inputs, maps, init({rows, keys}), map(2, {0, 1}), 2, 0,
                   [&](OpBuilder &nb, ValueRange a) {
                     Value scaled =
                         arith::MulFOp::create(nb, loc, a[0], scaleValue);
                     if (keyMask)
                       scaled = arith::SelectOp::create(nb, loc, a[1], scaled,
                                                        negativeInfinity());
                     if (!causal)
                       return scaled;
                     Value i = linalg::IndexOp::create(nb, loc, batchRank);
                     Value j = linalg::IndexOp::create(nb, loc, batchRank + 1);
                     Value later = arith::CmpIOp::create(
                         nb, loc, arith::CmpIPredicate::ugt, j, i);
                     return arith::SelectOp::create(nb, loc, later,
                                                    negativeInfinity(), scaled)
                         .getResult();
                   });
  }

  /// exp(scores[i, j] - rowValue[i]), shifted by 0 where rowValue[i] is
  /// -inf (a row without keys: exp(-inf) = 0, not NaN).
  Value exponentials(Value scores, Value rowValue) {
    return generic(
        {scores, rowValue}, {map(2, {0, 1}), map(2, {0})}, init({rows, keys}),
        map(2, {0, 1}), 2, 0, [&](OpBuilder &nb, ValueRange a) {
          Value noKeys = arith::CmpFOp::create(
              nb, loc, arith::CmpFPredicate::OEQ, a[1], negativeInfinity());
          Value shift =
              arith::SelectOp::create(nb, loc, noKeys, constant(0.0), a[1]);
          Value shifted = arith::SubFOp::create(nb, loc, a[0], shift);
          return math::ExpOp::create(nb, loc, shifted).getResult();
        });
  }

  /// sum over the last dimension of (rows x keys) `x`, or its maximum.
  Value rowReduce(Value x, bool max) {
    Value start = max ? negativeInfinity() : constant(0.0);
    return generic({x}, {map(2, {0, 1})}, init({rows}, start), map(2, {0}), 2,
                   1, [&](OpBuilder &nb, ValueRange a) -> Value {
                     if (max)
                       return arith::MaximumFOp::create(nb, loc, a[0], a[1]);
                     return arith::AddFOp::create(nb, loc, a[0], a[1]);
                   });
  }

  /// sum_c x[r, c] y[r, c] per row r, over `rowsOf` rows.
  Value rowDot(Value x, Value y, int64_t rowsOf) {
    return generic({x, y}, {map(2, {0, 1}), map(2, {0, 1})},
                   init({rowsOf}, constant(0.0)), map(2, {0}), 2, 1,
                   [&](OpBuilder &nb, ValueRange a) {
                     Value p = arith::MulFOp::create(nb, loc, a[0], a[1]);
                     return arith::AddFOp::create(nb, loc, a[2], p).getResult();
                   });
  }

  /// out[x, y] = sum_z lhs[lhsMap] rhs[rhsMap] over (x, y, z).
  Value contract(Value lhs, ArrayRef<unsigned> lhsTail, Value rhs,
                 ArrayRef<unsigned> rhsTail, int64_t sizeX, int64_t sizeY) {
    return generic({lhs, rhs}, {map(3, lhsTail), map(3, rhsTail)},
                   init({sizeX, sizeY}, constant(0.0)), map(3, {0, 1}), 3, 1,
                   [&](OpBuilder &nb, ValueRange a) {
                     Value p = arith::MulFOp::create(nb, loc, a[0], a[1]);
                     return arith::AddFOp::create(nb, loc, a[2], p).getResult();
                   });
  }

  Value constant(double v) {
    return arith::ConstantOp::create(b, loc, element,
                                     b.getFloatAttr(element, v));
  }
  Value negativeInfinity() {
    return constant(-std::numeric_limits<double>::infinity());
  }

  OpBuilder &b;
  Location loc;
  bool causal;
  Operation *origin;
  Type element;
  unsigned batchRank;
  SmallVector<int64_t> batchShape;
  int64_t rows, keys;
  Value scaleValue;
};

/// softmax(scores) V with the log-sum-exp.
void decompose(RewriterBase &rewriter, AttentionOp op) {
  AttentionBuilder a(rewriter, op.getLoc(), op.getQuery(), op.getKey(),
                     op.getValue(), op.getCausal(),
                     op.getScale().convertToDouble(), op);
  Location loc = op.getLoc();
  int64_t dv =
      cast<RankedTensorType>(op.getValue().getType()).getShape().back();
  Value scores = a.maskedScores(op.getQuery(), op.getKey(), op.getKeyMask());
  Value max = a.rowReduce(scores, /*max=*/true);
  Value exps = a.exponentials(scores, max);
  Value sums = a.rowReduce(exps, /*max=*/false);
  // out[i, e] = sum_j exps[i, j] v[j, e] / sums[i].
  Value weighted = a.contract(exps, {0, 2}, op.getValue(), {2, 1}, a.rows, dv);
  Value out = a.generic(
      {weighted, sums}, {a.map(2, {0, 1}), a.map(2, {0})}, a.init({a.rows, dv}),
      a.map(2, {0, 1}), 2, 0, [&](OpBuilder &nb, ValueRange x) {
        // A row without keys (sum 0) has output 0, as PyTorch's safe
        // softmax gives it.
        Value quotient = arith::DivFOp::create(nb, loc, x[0], x[1]);
        Value empty = arith::CmpFOp::create(nb, loc, arith::CmpFPredicate::OEQ,
                                            x[1], a.constant(0.0));
        return arith::SelectOp::create(nb, loc, empty, a.constant(0.0),
                                       quotient)
            .getResult();
      });
  Value lse =
      a.generic({max, sums}, {a.map(1, {0}), a.map(1, {0})}, a.init({a.rows}),
                a.map(1, {0}), 1, 0, [&](OpBuilder &nb, ValueRange x) {
                  Value log = math::LogOp::create(nb, loc, x[1]);
                  return arith::AddFOp::create(nb, loc, x[0], log).getResult();
                });
  rewriter.replaceOp(op, {out, lse});
}

/// dQ, dK, dV with the probabilities recomputed from the log-sum-exp.
void decompose(RewriterBase &rewriter, AttentionGradOp op) {
  AttentionBuilder a(rewriter, op.getLoc(), op.getQuery(), op.getKey(),
                     op.getValue(), op.getCausal(),
                     op.getScale().convertToDouble(), op);
  Location loc = op.getLoc();
  int64_t d = cast<RankedTensorType>(op.getQuery().getType()).getShape().back();
  int64_t dv =
      cast<RankedTensorType>(op.getValue().getType()).getShape().back();
  Value scores = a.maskedScores(op.getQuery(), op.getKey(), op.getKeyMask());
  Value probs = a.exponentials(scores, op.getLse());
  // dV[j, e] = sum_i P[i, j] dO[i, e]; dP[i, j] = sum_e dO[i, e] V[j, e].
  Value gradValue =
      a.contract(probs, {2, 0}, op.getGradOut(), {2, 1}, a.keys, dv);
  Value dp = a.contract(op.getGradOut(), {0, 2}, op.getValue(), {1, 2}, a.rows,
                        a.keys);
  Value rowTerm = a.rowDot(op.getGradOut(), op.getOut(), a.rows);
  Value ds = a.generic(
      {probs, dp, rowTerm}, {a.map(2, {0, 1}), a.map(2, {0, 1}), a.map(2, {0})},
      a.init({a.rows, a.keys}), a.map(2, {0, 1}), 2, 0,
      [&](OpBuilder &nb, ValueRange x) {
        Value diff = arith::SubFOp::create(nb, loc, x[1], x[2]);
        Value product = arith::MulFOp::create(nb, loc, x[0], diff);
        return arith::MulFOp::create(nb, loc, product, a.scaleValue)
            .getResult();
      });
  // dQ[i, c] = sum_j (scale dS)[i, j] K[j, c]; dK[j, c] = sum_i (scale
  // dS)[i, j] Q[i, c]. The scale is applied to dS, not inside the
  // contractions: IREE's CUDA backend cannot distribute a contraction whose
  // body is more than a multiply-add ("failed to distribute").
  Value gradQuery = a.contract(ds, {0, 2}, op.getKey(), {2, 1}, a.rows, d);
  Value gradKey = a.contract(ds, {2, 0}, op.getQuery(), {2, 1}, a.keys, d);
  rewriter.replaceOp(op, {gradQuery, gradKey, gradValue});
}

struct DecomposeAttentionPass
    : public mlir::ckpt::impl::DecomposeAttentionPassBase<
          DecomposeAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (Operation *op : collectAttentionOps(getOperation())) {
      if (keepCudaKernels && hasCudaAttentionKernel(op))
        continue;
      if (!cast<DestinationStyleOpInterface>(op).hasPureTensorSemantics()) {
        op->emitOpError("must be on tensors for ckpt-decompose-attention");
        return signalPassFailure();
      }
      if (failed(checkAttentionElementType(op, "decomposed")))
        return signalPassFailure();
      rewriter.setInsertionPoint(op);
      if (auto forward = dyn_cast<AttentionOp>(op))
        decompose(rewriter, forward);
      else
        decompose(rewriter, cast<AttentionGradOp>(op));
    }
  }
};

} // namespace
