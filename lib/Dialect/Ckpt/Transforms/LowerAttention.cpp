//===- LowerAttention.cpp - attention ops on memrefs to loops -------------===//
//
// Implements `ckpt-lower-attention`. Both ops walk the keys of a query row
// in blocks of kKeyBlock: the block's scores go to a row of that many
// elements on the stack (one per thread), so that their exponentials and
// sums run as vector loops. The forward keeps, per query row, a running
// maximum m and sum l of exp(s - m) while it accumulates the output row in
// place, rescaling it by exp(m_old - m_new) once per block (Milakov and
// Gimelshein's online softmax); the backward recomputes each probability as
// exp(s - lse). Neither allocates on the heap.
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

/// Keys per block: the stack rows hold this many scores.
constexpr int64_t kKeyBlock = 64;

/// Emits the scalar code of one attention op at a builder's insertion point.
class AttentionEmitter {
public:
  AttentionEmitter(OpBuilder &b, Location loc, Value query, Value key,
                   Value value, Value keyMask, bool causal, double scale)
      : b(b), loc(loc), query(query), key(key), value(value), keyMask(keyMask),
        causal(causal) {
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

  /// Reassociable sums, so that LLVM vectorizes them (in an order fixed
  /// per build: recomputation repeats it exactly).
  arith::FastMathFlagsAttr reassociable() {
    return arith::FastMathFlagsAttr::get(b.getContext(),
                                         arith::FastMathFlags::reassoc |
                                             arith::FastMathFlags::contract);
  }

  /// sum_d a[batch, i, d] * c[batch, j, d].
  Value dot(Value a, Value i, Value c, Value j, ValueRange batch) {
    Value size = dim(a, rank - 1);
    return loop(
        size, {constant(0.0)},
        [&](Value d, ValueRange acc) -> SmallVector<Value> {
          Value product =
              arith::MulFOp::create(b, loc, load(a, batch, i, d),
                                    load(c, batch, j, d), reassociable());
          return {arith::AddFOp::create(b, loc, acc[0], product, reassociable())
                      .getResult()};
        })[0];
  }

  /// A stack row of kKeyBlock elements (one block's scores).
  Value blockRow() {
    return memref::AllocaOp::create(b, loc,
                                    MemRefType::get({kKeyBlock}, element));
  }

  /// Walks keys [0, keys) in blocks of kKeyBlock; `body` gets the block's
  /// first key, its length and the iteration arguments.
  ValueRange
  blocks(Value keys, ValueRange inits,
         function_ref<SmallVector<Value>(Value, Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(
        b, loc, index(0), keys, index(kKeyBlock), inits,
        [&](OpBuilder &nested, Location, Value first, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nested.getInsertionBlock());
          Value left = arith::SubIOp::create(b, loc, keys, first);
          Value length = arith::MinUIOp::create(b, loc, left, index(kKeyBlock));
          SmallVector<Value> next = body(first, length, args);
          scf::YieldOp::create(b, loc, next);
        });
    return forOp.getResults();
  }

  /// row[jj] = exp(row[jj] - shift) for jj < length; returns their sum.
  Value exponentiate(Value row, Value length, Value shift) {
    return loop(
        length, {constant(0.0)},
        [&](Value jj, ValueRange acc) -> SmallVector<Value> {
          Value p = exp(sub(memref::LoadOp::create(b, loc, row, jj), shift));
          memref::StoreOp::create(b, loc, p, row, jj);
          return {arith::AddFOp::create(b, loc, acc[0], p, reassociable())
                      .getResult()};
        })[0];
  }

  /// buffer[batch, row, :] *= factor.
  void scaleRow(Value buffer, Value row, Value factor, ValueRange batch) {
    loop(dim(buffer, rank - 1), {}, [&](Value column, ValueRange) {
      store(mul(load(buffer, batch, row, column), factor), buffer, batch, row,
            column);
      return SmallVector<Value>{};
    });
  }

  /// scale * q_i . k_j, or -inf where the key mask is false.
  Value score(ValueRange batch, Value i, Value j) {
    Value s = mul(dot(query, i, key, j, batch), scaleValue);
    if (!keyMask)
      return s;
    return arith::SelectOp::create(b, loc, load(keyMask, batch, j), s,
                                   negativeInfinity());
  }

  Value negativeInfinity() {
    return constant(-std::numeric_limits<double>::infinity());
  }

  /// `x` as the shift of exp(s - shift): x, or 0 where x is -inf (a row
  /// whose keys are all masked, so far or at all), so that exp(-inf -
  /// shift) is 0, not NaN.
  Value shiftOf(Value x) {
    Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                       negativeInfinity());
    return arith::SelectOp::create(b, loc, none, constant(0.0), x);
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
  Value query, key, value, keyMask;
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
/// row with an online softmax over blocks of keys.
void lowerAttention(OpBuilder &b, AttentionOp op) {
  AttentionEmitter e(b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(),
                     op.getKeyMask(), op.getCausal(),
                     op.getScale().convertToDouble());
  Location loc = op.getLoc();
  Value out = op.getOut(), lse = op.getLse();
  e.forEachBatch(/*withRows=*/true, [&](ValueRange batch, Value i) {
    Value scores = e.blockRow();
    e.loop(e.dim(out, e.rank - 1), {}, [&](Value column, ValueRange) {
      e.store(e.constant(0.0), out, batch, i, column);
      return SmallVector<Value>{};
    });
    Value negInf = e.negativeInfinity();
    ValueRange stats = e.blocks(
        e.keysOf(i), {negInf, e.constant(0.0)},
        [&](Value first, Value length, ValueRange args) -> SmallVector<Value> {
          Value blockMax = e.loop(
              length, {negInf},
              [&](Value jj, ValueRange max) -> SmallVector<Value> {
                Value j = arith::AddIOp::create(b, loc, first, jj);
                Value s = e.score(batch, i, j);
                memref::StoreOp::create(b, loc, s, scores, jj);
                return {
                    arith::MaximumFOp::create(b, loc, max[0], s).getResult()};
              })[0];
          Value max = arith::MaximumFOp::create(b, loc, args[0], blockMax);
          // While every key so far is masked, a later block's keys still
          // count.
          Value shift = e.shiftOf(max);
          Value sum = e.exponentiate(scores, length, shift);
          Value rescale = e.exp(e.sub(args[0], shift));
          e.scaleRow(out, i, rescale, batch);
          e.loop(length, {}, [&](Value jj, ValueRange) {
            Value j = arith::AddIOp::create(b, loc, first, jj);
            Value p = memref::LoadOp::create(b, loc, scores, jj);
            e.axpy(out, i, Value(), p, e.value, j, batch);
            return SmallVector<Value>{};
          });
          return {max, e.add(e.mul(args[1], rescale), sum)};
        });
    // A row without keys (every one masked) has sum 0 and output 0, as
    // PyTorch's safe softmax gives it.
    Value inverse = arith::DivFOp::create(b, loc, e.constant(1.0), stats[1]);
    Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                        stats[1], e.constant(0.0));
    inverse = arith::SelectOp::create(b, loc, empty, e.constant(0.0), inverse);
    e.scaleRow(out, i, inverse, batch);
    Value logSum = math::LogOp::create(b, loc, stats[1]);
    e.store(e.add(stats[0], logSum), lse, batch, i);
  });
}

/// dQ, dK, dV of attention, per leading index, recomputing each probability
/// from the log-sum-exp, a block of keys at a time.
void lowerAttentionGrad(OpBuilder &b, AttentionGradOp op) {
  AttentionEmitter e(b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(),
                     op.getKeyMask(), op.getCausal(),
                     op.getScale().convertToDouble());
  Location loc = op.getLoc();
  Value out = op.getOut(), lse = op.getLse(), gradOut = op.getGradOut();
  Value dq = op.getGradQuery(), dk = op.getGradKey(), dv = op.getGradValue();
  e.forEachBatch(/*withRows=*/false, [&](ValueRange batch, Value) {
    Value probabilities = e.blockRow();
    Value gradScores = e.blockRow();
    e.zero(dq, batch);
    e.zero(dk, batch);
    e.zero(dv, batch);
    e.loop(e.dim(e.query, e.rank - 2), {}, [&](Value i, ValueRange) {
      // D_i = dO_i . O_i: the softmax Jacobian's row term.
      Value rowTerm = e.dot(gradOut, i, out, i, batch);
      // A row without keys (lse -inf) has probabilities 0.
      Value rowLse = e.shiftOf(e.load(lse, batch, i));
      e.blocks(e.keysOf(i), {}, [&](Value first, Value length, ValueRange) {
        e.loop(length, {}, [&](Value jj, ValueRange) {
          Value j = arith::AddIOp::create(b, loc, first, jj);
          memref::StoreOp::create(b, loc, e.score(batch, i, j), probabilities,
                                  jj);
          return SmallVector<Value>{};
        });
        e.exponentiate(probabilities, length, rowLse);
        e.loop(length, {}, [&](Value jj, ValueRange) {
          Value j = arith::AddIOp::create(b, loc, first, jj);
          Value p = memref::LoadOp::create(b, loc, probabilities, jj);
          Value dp = e.dot(gradOut, i, e.value, j, batch);
          Value ds = e.mul(e.mul(p, e.sub(dp, rowTerm)), e.scaleValue);
          memref::StoreOp::create(b, loc, ds, gradScores, jj);
          return SmallVector<Value>{};
        });
        e.loop(length, {}, [&](Value jj, ValueRange) {
          Value j = arith::AddIOp::create(b, loc, first, jj);
          Value p = memref::LoadOp::create(b, loc, probabilities, jj);
          Value ds = memref::LoadOp::create(b, loc, gradScores, jj);
          e.axpy(dv, j, Value(), p, gradOut, i, batch);
          e.axpy(dq, i, Value(), ds, e.key, j, batch);
          e.axpy(dk, j, Value(), ds, e.query, i, batch);
          return SmallVector<Value>{};
        });
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
