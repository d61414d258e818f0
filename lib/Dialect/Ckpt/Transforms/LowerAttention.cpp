//===- LowerAttention.cpp - attention ops on memrefs to loops -------------===//
//
// Implements `ckpt-lower-attention`. The forward keeps, per query row, a
// running maximum m and sum l of exp(s - m) while it accumulates the output
// row in place, rescaling it by exp(m_old - m_new) when the maximum grows
// (Milakov and Gimelshein's online softmax); the backward recomputes each
// probability as exp(s - lse). Neither allocates.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

#define DEBUG_TYPE "ckpt-lower-attention"

namespace mlir::ckpt {
#define GEN_PASS_DEF_LOWERATTENTIONPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Emits the scalar code of one attention op at a builder's insertion point.
class AttentionEmitter {
public:
  AttentionEmitter(OpBuilder &b, Location loc, Value query, Value key,
                   Value value, bool causal, double scale)
      : b(b), loc(loc), query(query), key(key), value(value), causal(causal) {
    auto queryType = cast<MemRefType>(query.getType());
    element = cast<FloatType>(queryType.getElementType());
    rank = queryType.getRank();
    scaleValue = constant(scale);
  }

  /// Loops over the leading dimensions (and the query rows when
  /// `withRows`) in parallel; `body` gets the batch indices and the row.
  void forEachBatch(bool withRows, function_ref<void(ValueRange, Value)> body) {
    SmallVector<Value> lower, upper, steps;
    for (int64_t dim = 0; dim < rank - 2 + (withRows ? 1 : 0); ++dim) {
      lower.push_back(index(0));
      upper.push_back(memref::DimOp::create(b, loc, query, dim));
      steps.push_back(index(1));
    }
    if (lower.empty()) {
      body({}, Value());
      return;
    }
    scf::ParallelOp::create(b, loc, lower, upper, steps,
                            [&](OpBuilder &nested, Location, ValueRange ivs) {
                              OpBuilder::InsertionGuard guard(b);
                              b.setInsertionPointToStart(
                                  nested.getInsertionBlock());
                              body(withRows ? ivs.drop_back() : ivs,
                                   withRows ? ivs.back() : Value());
                            });
  }

  /// A sequential loop from 0 to `upper`; `body` gets the induction
  /// variable and the iteration arguments and returns the next ones.
  ValueRange loop(Value upper, ValueRange inits,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(
        b, loc, index(0), upper, index(1), inits,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nested.getInsertionBlock());
          SmallVector<Value> next = body(iv, args);
          scf::YieldOp::create(b, loc, next);
        });
    return forOp.getResults();
  }

  /// sum_d a[batch, i, d] * c[batch, j, d].
  Value dot(Value a, Value i, Value c, Value j, ValueRange batch) {
    Value size = dim(a, rank - 1);
    return loop(size, {constant(0.0)},
                [&](Value d, ValueRange acc) -> SmallVector<Value> {
                  // Reassociable, so LLVM vectorizes the sum (a fixed
                  // order per build: recomputation repeats it exactly).
                  auto flags = arith::FastMathFlagsAttr::get(
                      b.getContext(), arith::FastMathFlags::reassoc |
                                          arith::FastMathFlags::contract);
                  Value product =
                      arith::MulFOp::create(b, loc, load(a, batch, i, d),
                                            load(c, batch, j, d), flags);
                  return {arith::AddFOp::create(b, loc, acc[0], product, flags)
                              .getResult()};
                })[0];
  }

  /// scale * q_i . k_j.
  Value score(ValueRange batch, Value i, Value j) {
    return mul(dot(query, i, key, j, batch), scaleValue);
  }

  /// The number of keys row `i` attends to.
  Value keysOf(Value i) {
    Value keys = dim(key, rank - 2);
    if (!causal)
      return keys;
    Value next = arith::AddIOp::create(b, loc, i, index(1));
    return arith::MinUIOp::create(b, loc, next, keys);
  }

  /// Sets buffer[batch, :, :] to zero.
  void zero(Value buffer, ValueRange batch) {
    loop(dim(buffer, rank - 2), {}, [&](Value row, ValueRange) {
      loop(dim(buffer, rank - 1), {}, [&](Value column, ValueRange) {
        store(constant(0.0), buffer, batch, row, column);
        return SmallVector<Value>{};
      });
      return SmallVector<Value>{};
    });
  }

  /// buffer[batch, row, :] = buffer[batch, row, :] * keep + factor *
  /// source[batch, sourceRow, :]; `keep` may be null (1).
  void axpy(Value buffer, Value row, Value keep, Value factor, Value source,
            Value sourceRow, ValueRange batch) {
    loop(dim(buffer, rank - 1), {}, [&](Value column, ValueRange) {
      Value old = load(buffer, batch, row, column);
      if (keep)
        old = mul(old, keep);
      Value term = mul(factor, load(source, batch, sourceRow, column));
      store(add(old, term), buffer, batch, row, column);
      return SmallVector<Value>{};
    });
  }

  Value load(Value buffer, ValueRange batch, Value row, Value column = {}) {
    return memref::LoadOp::create(b, loc, buffer, indices(batch, row, column));
  }
  void store(Value scalar, Value buffer, ValueRange batch, Value row,
             Value column = {}) {
    memref::StoreOp::create(b, loc, scalar, buffer,
                            indices(batch, row, column));
  }
  Value dim(Value buffer, int64_t d) {
    return memref::DimOp::create(b, loc, buffer, d);
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value constant(double v) {
    return arith::ConstantOp::create(b, loc, element,
                                     b.getFloatAttr(element, v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }

  OpBuilder &b;
  Location loc;
  Value query, key, value;
  bool causal;
  FloatType element;
  int64_t rank;
  Value scaleValue;

private:
  static SmallVector<Value> indices(ValueRange batch, Value row, Value column) {
    SmallVector<Value> all(batch);
    all.push_back(row);
    if (column)
      all.push_back(column);
    return all;
  }
};

/// out[i] = sum_j softmax_j(s_ij) v_j, lse[i] = log sum_j exp(s_ij), row by
/// row with an online softmax.
void lowerAttention(OpBuilder &b, AttentionOp op) {
  AttentionEmitter e(b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(),
                     op.getCausal(), op.getScale().convertToDouble());
  Value out = op.getOut(), lse = op.getLse();
  e.forEachBatch(/*withRows=*/true, [&](ValueRange batch, Value i) {
    e.loop(e.dim(out, e.rank - 1), {}, [&](Value column, ValueRange) {
      e.store(e.constant(0.0), out, batch, i, column);
      return SmallVector<Value>{};
    });
    Value negInf = e.constant(-std::numeric_limits<double>::infinity());
    ValueRange stats =
        e.loop(e.keysOf(i), {negInf, e.constant(0.0)},
               [&](Value j, ValueRange args) -> SmallVector<Value> {
                 Value s = e.score(batch, i, j);
                 Value max =
                     arith::MaximumFOp::create(b, op.getLoc(), args[0], s);
                 Value rescale = e.exp(e.sub(args[0], max));
                 Value p = e.exp(e.sub(s, max));
                 Value sum = e.add(e.mul(args[1], rescale), p);
                 e.axpy(out, i, rescale, p, e.value, j, batch);
                 return {max, sum};
               });
    Value inverse =
        arith::DivFOp::create(b, op.getLoc(), e.constant(1.0), stats[1]);
    e.loop(e.dim(out, e.rank - 1), {}, [&](Value column, ValueRange) {
      e.store(e.mul(e.load(out, batch, i, column), inverse), out, batch, i,
              column);
      return SmallVector<Value>{};
    });
    Value logSum = math::LogOp::create(b, op.getLoc(), stats[1]);
    e.store(e.add(stats[0], logSum), lse, batch, i);
  });
}

/// dQ, dK, dV of attention, per leading index, recomputing each probability
/// from the log-sum-exp.
void lowerAttentionGrad(OpBuilder &b, AttentionGradOp op) {
  AttentionEmitter e(b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(),
                     op.getCausal(), op.getScale().convertToDouble());
  Value out = op.getOut(), lse = op.getLse(), gradOut = op.getGradOut();
  Value dq = op.getGradQuery(), dk = op.getGradKey(), dv = op.getGradValue();
  e.forEachBatch(/*withRows=*/false, [&](ValueRange batch, Value) {
    e.zero(dq, batch);
    e.zero(dk, batch);
    e.zero(dv, batch);
    e.loop(e.dim(e.query, e.rank - 2), {}, [&](Value i, ValueRange) {
      // D_i = dO_i . O_i: the softmax Jacobian's row term.
      Value rowTerm = e.dot(gradOut, i, out, i, batch);
      Value rowLse = e.load(lse, batch, i);
      e.loop(e.keysOf(i), {}, [&](Value j, ValueRange) {
        Value p = e.exp(e.sub(e.score(batch, i, j), rowLse));
        e.axpy(dv, j, Value(), p, gradOut, i, batch);
        Value dp = e.dot(gradOut, i, e.value, j, batch);
        Value ds = e.mul(e.mul(p, e.sub(dp, rowTerm)), e.scaleValue);
        e.axpy(dq, i, Value(), ds, e.key, j, batch);
        e.axpy(dk, j, Value(), ds, e.query, i, batch);
        return SmallVector<Value>{};
      });
      return SmallVector<Value>{};
    });
  });
}

/// Fails on tensor operands or element types the loops do not compute.
LogicalResult checkLowerable(Operation *op) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  if (!dps.hasPureBufferSemantics())
    return op->emitOpError("must be bufferized before ckpt-lower-attention");
  return checkAttentionElementType(op, "lowered");
}

struct LowerAttentionPass
    : public mlir::ckpt::impl::LowerAttentionPassBase<LowerAttentionPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (Operation *op : collectAttentionOps(getOperation())) {
      if (failed(checkLowerable(op)))
        return signalPassFailure();
      rewriter.setInsertionPoint(op);
      if (auto forward = dyn_cast<AttentionOp>(op))
        lowerAttention(rewriter, forward);
      else
        lowerAttentionGrad(rewriter, cast<AttentionGradOp>(op));
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
