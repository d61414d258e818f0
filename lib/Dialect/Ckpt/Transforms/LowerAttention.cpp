//===- LowerAttention.cpp - attention ops on memrefs to loops -------------===//
//
// Implements `ckpt-lower-attention`. Both ops walk the keys in blocks whose
// keys lie along the innermost, constant-length loops: a block of K (and,
// in the backward, of V) is first copied transposed, feature by key, into a
// stack tile padded with zeros, so that a query row's scores against the
// whole block are `length(D)` multiply-adds of one row of lanes, the loop
// LLVM vectorizes and keeps in registers. Padded keys, masked keys and the
// keys a causal row does not see get the score -inf.
//
// The forward is parallel over the leading dimensions and tiles of query
// rows; a tile shares each transposed key block. Per row it keeps a running
// maximum m and sum l of exp(s - m) while it accumulates the output row in
// a stack tile, rescaling it by exp(m_old - m_new) once per block (Milakov
// and Gimelshein's online softmax). The backward is parallel over the
// leading dimensions; per key block it recomputes each row's probabilities
// as exp(s - lse) and accumulates the block's dK and dV in transposed stack
// tiles (written out once the rows are done) and dQ per block. Neither
// allocates on the heap.
//
// The multiply-adds (scores, dP, the outputs, dK, dV, dQ) run on groups of
// kRowGroup query rows as vector loops whose accumulators are loop-carried
// vectors: each vector loaded from a tile serves every row of the group,
// as in a GEMM micro-kernel.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

#define DEBUG_TYPE "ckpt-lower-attention"

namespace mlir::ckpt {
#define GEN_PASS_DEF_LOWERATTENTIONPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Key blocks are whole groups of this many keys (a vector of f32 lanes on
/// the widest x86 units).
constexpr int64_t kKeyGroup = 16;
/// The most keys in one block.
constexpr int64_t kMaxKeyBlock = 128;
/// Keys per block when the key count is dynamic.
constexpr int64_t kDynamicKeyBlock = 64;
/// Query rows that share one transposed key block in the forward.
constexpr int64_t kQueryTile = 16;
/// Query rows whose scores and outputs one pass of the forward's
/// multiply-add loops computes together: each vector loaded from a tile
/// serves this many rows, whose accumulators stay in registers.
constexpr int64_t kRowGroup = 4;
static_assert(kQueryTile % kRowGroup == 0, "whole groups per query tile");
/// Bytes of one vector of the forward's multiply-add loops (two AVX2 or one
/// AVX-512 register); key blocks are whole vectors of f32 and f64 lanes.
constexpr int64_t kVectorBytes = 64;

/// The keys per block for `keys` keys: whole groups, as few blocks of at
/// most kMaxKeyBlock as cover them, of equal length, so that padding is
/// less than a group per block.
int64_t chooseKeyBlock(int64_t keys) {
  if (ShapedType::isDynamic(keys))
    return kDynamicKeyBlock;
  int64_t groups = llvm::divideCeil(std::max<int64_t>(keys, 1), kKeyGroup);
  int64_t blocks = llvm::divideCeil(groups, kMaxKeyBlock / kKeyGroup);
  return kKeyGroup * llvm::divideCeil(groups, blocks);
}

/// Emits the loops of one attention op at a builder's insertion point.
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
    block =
        chooseKeyBlock(cast<MemRefType>(key.getType()).getDimSize(rank - 2));
  }

  /// Loops in parallel over the leading dimensions and, when `extra` is
  /// set, over [0, extra); `body` gets the leading indices and the extra
  /// index. With a dynamic feature size, each iteration is an alloca scope
  /// (its tiles are released when it ends).
  void parallel(Value extra, function_ref<void(ValueRange, Value)> body) {
    SmallVector<Value> lower, upper, steps;
    for (int64_t dim = 0; dim < rank - 2; ++dim) {
      lower.push_back(index(0));
      upper.push_back(memref::DimOp::create(b, loc, query, dim));
      steps.push_back(index(1));
    }
    if (extra) {
      lower.push_back(index(0));
      upper.push_back(extra);
      steps.push_back(index(1));
    }
    auto scoped = [&](ValueRange ivs) {
      ValueRange batch = extra ? ivs.drop_back() : ivs;
      Value extraIv = extra ? ivs.back() : Value();
      if (!hasDynamicFeatures()) {
        body(batch, extraIv);
        return;
      }
      auto scope =
          memref::AllocaScopeOp::create(b, loc, TypeRange{}, ValueRange{});
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(&scope.getBodyRegion());
      body(batch, extraIv);
      memref::AllocaScopeReturnOp::create(b, loc, ValueRange{});
    };
    if (lower.empty()) {
      scoped({});
      return;
    }
    scf::ParallelOp::create(b, loc, lower, upper, steps,
                            [&](OpBuilder &nested, Location, ValueRange ivs) {
                              OpBuilder::InsertionGuard guard(b);
                              b.setInsertionPointToStart(
                                  nested.getInsertionBlock());
                              scoped(ivs);
                            });
  }

  /// A sequential loop from `lowerBound` to `upper`; `body` gets the
  /// induction variable and the iteration arguments and returns the next
  /// ones.
  ValueRange loop(Value lowerBound, Value upper, ValueRange inits,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    auto forOp = scf::ForOp::create(
        b, loc, lowerBound, upper, index(1), inits,
        [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nested.getInsertionBlock());
          SmallVector<Value> next = body(iv, args);
          scf::YieldOp::create(b, loc, next);
        });
    return forOp.getResults();
  }
  ValueRange loop(Value upper, ValueRange inits,
                  function_ref<SmallVector<Value>(Value, ValueRange)> body) {
    return loop(index(0), upper, inits, body);
  }
  /// A loop without iteration arguments.
  void each(Value upper, function_ref<void(Value)> body) {
    loop(upper, {}, [&](Value iv, ValueRange) {
      body(iv);
      return SmallVector<Value>{};
    });
  }
  /// A loop over the lanes of a key block (constant trip count).
  void lanes(function_ref<void(Value)> body) { each(index(block), body); }
  Value lanes(Value init, function_ref<Value(Value, Value)> body) {
    return loop(index(block), {init},
                [&](Value c, ValueRange acc) -> SmallVector<Value> {
                  return {body(c, acc[0])};
                })[0];
  }

  /// Reassociable sums, so that LLVM vectorizes them (in an order fixed
  /// per build: recomputation repeats it exactly).
  arith::FastMathFlagsAttr reassociable() {
    return arith::FastMathFlagsAttr::get(b.getContext(),
                                         arith::FastMathFlags::reassoc |
                                             arith::FastMathFlags::contract);
  }
  Value sum(Value x, Value y) {
    return arith::AddFOp::create(b, loc, x, y, reassociable());
  }
  /// x + y * z, contractible into one fused multiply-add.
  Value multiplyAdd(Value x, Value y, Value z) {
    auto contract = arith::FastMathFlagsAttr::get(
        b.getContext(), arith::FastMathFlags::contract);
    Value product = arith::MulFOp::create(b, loc, y, z, contract);
    return arith::AddFOp::create(b, loc, x, product, contract);
  }

  /// sum_d a[batch, i, d] * c[batch, i, d].
  Value dot(Value a, Value c, Value i, ValueRange batch) {
    return loop(dim(a, rank - 1), {constant(0.0)},
                [&](Value d, ValueRange acc) -> SmallVector<Value> {
                  Value product = arith::MulFOp::create(
                      b, loc, load(a, batch, i, d), load(c, batch, i, d),
                      reassociable());
                  return {sum(acc[0], product)};
                })[0];
  }

  bool hasDynamicFeatures() {
    for (Value operand : {query, value})
      if (cast<MemRefType>(operand.getType()).isDynamicDim(rank - 1))
        return true;
    return false;
  }

  /// A stack row of one key block's lanes.
  Value laneRow() { return stackRow(block); }
  /// A stack row of `size` elements.
  Value stackRow(int64_t size) {
    return memref::AllocaOp::create(b, loc, MemRefType::get({size}, element));
  }
  /// A stack tile of `operand`'s features by a block's lanes.
  Value transposedTile(Value operand) {
    int64_t features = cast<MemRefType>(operand.getType()).getDimSize(rank - 1);
    auto type = MemRefType::get({features, block}, element);
    SmallVector<Value> sizes;
    if (ShapedType::isDynamic(features))
      sizes.push_back(dim(operand, rank - 1));
    return memref::AllocaOp::create(b, loc, type, sizes);
  }

  /// tile[d, c] = source[batch, first + c, d] for the block's `length`
  /// keys, 0 on the padding lanes. With `bias`, also bias[c] = 0 for a key
  /// that counts and -inf for a masked or padding lane.
  void transpose(Value source, ValueRange batch, Value first, Value length,
                 Value tile, Value bias = {}) {
    Value features = dim(source, rank - 1);
    lanes([&](Value c) {
      Value inside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c, length);
      Value j = arith::SelectOp::create(
          b, loc, inside, arith::AddIOp::create(b, loc, first, c), first);
      each(features, [&](Value d) {
        Value x = arith::SelectOp::create(
            b, loc, inside, load(source, batch, j, d), constant(0.0));
        memref::StoreOp::create(b, loc, x, tile, ValueRange{d, c});
      });
      if (!bias)
        return;
      Value counts = inside;
      if (keyMask)
        counts = arith::AndIOp::create(b, loc, counts, load(keyMask, batch, j));
      Value biasValue = arith::SelectOp::create(b, loc, counts, constant(0.0),
                                                negativeInfinity());
      memref::StoreOp::create(b, loc, biasValue, bias, c);
    });
  }

  /// dest[batch, first + c, d] = tile[d, c] for the block's keys.
  void writeBack(Value tile, Value dest, ValueRange batch, Value first,
                 Value length) {
    Value features = dim(dest, rank - 1);
    each(length, [&](Value c) {
      Value j = arith::AddIOp::create(b, loc, first, c);
      each(features, [&](Value d) {
        store(memref::LoadOp::create(b, loc, tile, ValueRange{d, c}), dest,
              batch, j, d);
      });
    });
  }

  /// tile[:, :] = 0.
  void zeroTile(Value tile, Value features) {
    each(features, [&](Value d) {
      lanes([&](Value c) {
        memref::StoreOp::create(b, loc, constant(0.0), tile, ValueRange{d, c});
      });
    });
  }

  /// Lanes of one multiply-add vector.
  int64_t vectorLanes() { return kVectorBytes / (element.getWidth() / 8); }
  VectorType laneVector() { return VectorType::get({vectorLanes()}, element); }

  /// A stack tile of `rows` rows of `operand`'s features, padded to whole
  /// vectors when `padded`.
  Value rowTile(Value operand, int64_t rows, bool padded) {
    int64_t features = cast<MemRefType>(operand.getType()).getDimSize(rank - 1);
    int64_t lanes = vectorLanes();
    SmallVector<Value> sizes;
    if (ShapedType::isDynamic(features)) {
      Value width = dim(operand, rank - 1);
      if (padded)
        width = arith::MulIOp::create(
            b, loc, arith::CeilDivUIOp::create(b, loc, width, index(lanes)),
            index(lanes));
      sizes.push_back(width);
    } else if (padded) {
      features = llvm::divideCeil(features, lanes) * lanes;
    }
    return memref::AllocaOp::create(
        b, loc, MemRefType::get({rows, features}, element), sizes);
  }

  /// A loop from 0 to `upper` in steps of `step`.
  void stride(Value upper, int64_t step, function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, index(0), upper, index(step), ValueRange{},
                       [&](OpBuilder &nested, Location, Value iv, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPointToStart(nested.getInsertionBlock());
                         body(iv);
                         scf::YieldOp::create(b, loc);
                       });
  }

  /// scores[r, c] = sum_d row(r, d) * tile[d, c] for the kRowGroup rows
  /// and every lane: per vector of lanes, one loop over the features whose
  /// kRowGroup accumulators are loop-carried vectors, each vector of the
  /// tile loaded once for all of them.
  void projectGroup(function_ref<Value(int64_t, Value)> row, Value tile,
                    Value scores) {
    int64_t lanes = vectorLanes();
    VectorType vector = laneVector();
    Value features = dim(tile, 0);
    stride(index(block), lanes, [&](Value c) {
      SmallVector<Value> zeros(kRowGroup, vector::BroadcastOp::create(
                                              b, loc, vector, constant(0.0)));
      ValueRange sums = loop(features, zeros, [&](Value d, ValueRange acc) {
        Value t =
            vector::LoadOp::create(b, loc, vector, tile, ValueRange{d, c});
        SmallVector<Value> next;
        for (int64_t r = 0; r < kRowGroup; ++r) {
          Value broadcast =
              vector::BroadcastOp::create(b, loc, vector, row(r, d));
          next.push_back(vector::FMAOp::create(b, loc, broadcast, t, acc[r]));
        }
        return next;
      });
      for (int64_t r = 0; r < kRowGroup; ++r)
        vector::StoreOp::create(b, loc, sums[r], scores,
                                ValueRange{index(r), c});
    });
  }

  /// tile[f, c] += sum_r row(r, f) * lanes[r, c] for the kRowGroup rows:
  /// per vector of lanes, the rows' lane vectors are loaded once and each
  /// feature's tile vector is read and written once for all rows.
  void outerGroup(Value tile, function_ref<Value(int64_t, Value)> row,
                  Value laneRows) {
    int64_t lanes = vectorLanes();
    VectorType vector = laneVector();
    Value features = dim(tile, 0);
    stride(index(block), lanes, [&](Value c) {
      SmallVector<Value> rowLanes;
      for (int64_t r = 0; r < kRowGroup; ++r)
        rowLanes.push_back(vector::LoadOp::create(b, loc, vector, laneRows,
                                                  ValueRange{index(r), c}));
      each(features, [&](Value f) {
        Value acc =
            vector::LoadOp::create(b, loc, vector, tile, ValueRange{f, c});
        for (int64_t r = 0; r < kRowGroup; ++r) {
          Value broadcast =
              vector::BroadcastOp::create(b, loc, vector, row(r, f));
          acc = vector::FMAOp::create(b, loc, broadcast, rowLanes[r], acc);
        }
        vector::StoreOp::create(b, loc, acc, tile, ValueRange{f, c});
      });
    });
  }

  /// outs[group + r, :] += sum_c probabilities[r, c] * values[c, :] over
  /// the block's `length` keys, for the kRowGroup rows from `group`: per
  /// vector of output columns, the rows' accumulators are loop-carried
  /// vectors over the keys, each vector of values loaded once for all.
  void accumulateGroup(Value outs, Value group, Value probabilities,
                       Value values, Value length) {
    int64_t lanes = vectorLanes();
    VectorType vector = laneVector();
    stride(dim(outs, 1), lanes, [&](Value column) {
      SmallVector<Value> rows, inits;
      for (int64_t r = 0; r < kRowGroup; ++r) {
        rows.push_back(arith::AddIOp::create(b, loc, group, index(r)));
        inits.push_back(vector::LoadOp::create(b, loc, vector, outs,
                                               ValueRange{rows[r], column}));
      }
      ValueRange sums = loop(length, inits, [&](Value c, ValueRange acc) {
        Value v = vector::LoadOp::create(b, loc, vector, values,
                                         ValueRange{c, column});
        SmallVector<Value> next;
        for (int64_t r = 0; r < kRowGroup; ++r) {
          Value p = memref::LoadOp::create(b, loc, probabilities,
                                           ValueRange{index(r), c});
          Value broadcast = vector::BroadcastOp::create(b, loc, vector, p);
          next.push_back(vector::FMAOp::create(b, loc, broadcast, v, acc[r]));
        }
        return next;
      });
      for (int64_t r = 0; r < kRowGroup; ++r)
        vector::StoreOp::create(b, loc, sums[r], outs,
                                ValueRange{rows[r], column});
    });
  }

  /// tile[c, :] = source[batch, first + c, :] for the block's `length`
  /// rows; the tile's padding columns (past the source's width) are zero.
  void copyRows(Value source, ValueRange batch, Value first, Value length,
                Value tile) {
    Value features = dim(source, rank - 1);
    Value width = dim(tile, 1);
    each(length, [&](Value c) {
      Value j = arith::AddIOp::create(b, loc, first, c);
      each(width, [&](Value d) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             d, features);
        Value column = arith::SelectOp::create(b, loc, inside, d, index(0));
        Value x = arith::SelectOp::create(
            b, loc, inside, load(source, batch, j, column), constant(0.0));
        memref::StoreOp::create(b, loc, x, tile, ValueRange{c, d});
      });
    });
  }

  /// row[c] = the score in row[c] where lane c counts (its bias is 0 and,
  /// causal, c < visible), -inf elsewhere; returns the lanes' maximum.
  Value maskScores(Value row, ValueRange rowIndex, Value bias, Value visible) {
    return lanes(negativeInfinity(), [&](Value c, Value max) {
      SmallVector<Value> at(rowIndex);
      at.push_back(c);
      Value s = memref::LoadOp::create(b, loc, row, at);
      Value counts = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::OEQ,
          memref::LoadOp::create(b, loc, bias, c), constant(0.0));
      if (causal)
        counts = arith::AndIOp::create(
            b, loc, counts,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c,
                                  visible));
      s = arith::SelectOp::create(b, loc, counts, s, negativeInfinity());
      memref::StoreOp::create(b, loc, s, row, at);
      return arith::MaximumFOp::create(b, loc, max, s).getResult();
    });
  }

  /// The keys of the block at `first` of `length` that row `i` sees: all,
  /// or (causal) those up to i.
  Value visibleKeys(Value i, Value first, Value length) {
    if (!causal)
      return length;
    Value next = arith::AddIOp::create(b, loc, i, index(1));
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, next, first);
    Value seen = arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, next, first), length);
    return arith::SelectOp::create(b, loc, any, seen, index(0));
  }

  /// Walks keys [0, keys) in blocks; `body` gets the block's first key and
  /// its length.
  void blocks(Value keys, function_ref<void(Value, Value)> body) {
    stride(keys, block, [&](Value first) {
      Value left = arith::SubIOp::create(b, loc, keys, first);
      body(first, arith::MinUIOp::create(b, loc, left, index(block)));
    });
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
    each(dim(buffer, rank - 2), [&](Value row) {
      each(dim(buffer, rank - 1), [&](Value column) {
        store(constant(0.0), buffer, batch, row, column);
      });
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
  /// Keys per block (lanes of the score rows and transposed tiles).
  int64_t block;

private:
  static SmallVector<Value> indices(ValueRange batch, Value row, Value column) {
    SmallVector<Value> all(batch);
    all.push_back(row);
    if (column)
      all.push_back(column);
    return all;
  }
};

/// out[i] = sum_j softmax_j(s_ij) v_j, lse[i] = log sum_j exp(s_ij): per
/// tile of query rows (copied, scaled, into a stack tile; the outputs
/// accumulate in another), an online softmax over the key blocks, the
/// multiply-adds kRowGroup rows at a time.
void lowerAttention(OpBuilder &b, AttentionOp op) {
  AttentionEmitter e(b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(),
                     op.getKeyMask(), op.getCausal(),
                     op.getScale().convertToDouble());
  Location loc = op.getLoc();
  Value out = op.getOut(), lse = op.getLse();
  Value rows = e.dim(e.query, e.rank - 2);
  Value tiles = arith::CeilDivUIOp::create(b, loc, rows, e.index(kQueryTile));
  e.parallel(tiles, [&](ValueRange batch, Value tile) {
    Value queries = e.rowTile(e.query, kQueryTile, /*padded=*/false);
    Value outs = e.rowTile(e.value, kQueryTile, /*padded=*/true);
    Value values = e.rowTile(e.value, e.block, /*padded=*/true);
    Value keysTile = e.transposedTile(e.key);
    Value bias = e.laneRow();
    Value scores = memref::AllocaOp::create(
        b, loc, MemRefType::get({kRowGroup, e.block}, e.element));
    Value maxima = e.stackRow(kQueryTile);
    Value sums = e.stackRow(kQueryTile);
    Value firstRow = arith::MulIOp::create(b, loc, tile, e.index(kQueryTile));
    Value tileRows = arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, rows, firstRow),
        e.index(kQueryTile));
    Value lastRow = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, firstRow, tileRows), e.index(1));
    auto rowOf = [&](Value r) {
      return arith::AddIOp::create(b, loc, firstRow, r).getResult();
    };
    // The tile's rows, scaled (rows past the query's last are zero and
    // never written out), zero outputs, empty softmax state.
    Value features = e.dim(e.query, e.rank - 1);
    e.each(e.index(kQueryTile), [&](Value r) {
      Value inside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r, tileRows);
      Value i = arith::SelectOp::create(b, loc, inside, rowOf(r), firstRow);
      e.each(features, [&](Value d) {
        Value x = arith::SelectOp::create(
            b, loc, inside, e.mul(e.load(e.query, batch, i, d), e.scaleValue),
            e.constant(0.0));
        memref::StoreOp::create(b, loc, x, queries, ValueRange{r, d});
      });
      e.each(e.dim(outs, 1), [&](Value column) {
        memref::StoreOp::create(b, loc, e.constant(0.0), outs,
                                ValueRange{r, column});
      });
      memref::StoreOp::create(b, loc, e.negativeInfinity(), maxima, r);
      memref::StoreOp::create(b, loc, e.constant(0.0), sums, r);
    });
    e.blocks(e.keysOf(lastRow), [&](Value first, Value length) {
      e.transpose(e.key, batch, first, length, keysTile, bias);
      e.copyRows(e.value, batch, first, length, values);
      e.stride(e.index(kQueryTile), kRowGroup, [&](Value group) {
        e.projectGroup(
            [&](int64_t g, Value d) -> Value {
              Value r = arith::AddIOp::create(b, loc, group, e.index(g));
              return memref::LoadOp::create(b, loc, queries, ValueRange{r, d});
            },
            keysTile, scores);
        for (int64_t g = 0; g < kRowGroup; ++g) {
          Value r = arith::AddIOp::create(b, loc, group, e.index(g));
          Value visible = e.visibleKeys(rowOf(r), first, length);
          Value blockMax = e.maskScores(scores, {e.index(g)}, bias, visible);
          Value oldMax = memref::LoadOp::create(b, loc, maxima, r);
          Value max = arith::MaximumFOp::create(b, loc, oldMax, blockMax);
          // While every key so far is masked, a later block's keys still
          // count.
          Value shift = e.shiftOf(max);
          Value blockSum = e.lanes(e.constant(0.0), [&](Value c, Value acc) {
            Value p =
                e.exp(e.sub(memref::LoadOp::create(b, loc, scores,
                                                   ValueRange{e.index(g), c}),
                            shift));
            memref::StoreOp::create(b, loc, p, scores,
                                    ValueRange{e.index(g), c});
            return e.sum(acc, p);
          });
          Value rescale = e.exp(e.sub(oldMax, shift));
          e.each(e.dim(outs, 1), [&](Value column) {
            Value o =
                memref::LoadOp::create(b, loc, outs, ValueRange{r, column});
            memref::StoreOp::create(b, loc, e.mul(o, rescale), outs,
                                    ValueRange{r, column});
          });
          memref::StoreOp::create(b, loc, max, maxima, r);
          Value oldSum = memref::LoadOp::create(b, loc, sums, r);
          memref::StoreOp::create(
              b, loc, e.add(e.mul(oldSum, rescale), blockSum), sums, r);
        }
        e.accumulateGroup(outs, group, scores, values, length);
      });
    });
    // A row without keys (every one masked) has sum 0 and output 0, as
    // PyTorch's safe softmax gives it.
    e.each(tileRows, [&](Value r) {
      Value i = rowOf(r);
      Value total = memref::LoadOp::create(b, loc, sums, r);
      Value inverse = arith::DivFOp::create(b, loc, e.constant(1.0), total);
      Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          total, e.constant(0.0));
      inverse =
          arith::SelectOp::create(b, loc, empty, e.constant(0.0), inverse);
      e.each(e.dim(out, e.rank - 1), [&](Value column) {
        Value o = memref::LoadOp::create(b, loc, outs, ValueRange{r, column});
        e.store(e.mul(o, inverse), out, batch, i, column);
      });
      Value logSum = math::LogOp::create(b, loc, total);
      Value max = memref::LoadOp::create(b, loc, maxima, r);
      e.store(e.add(max, logSum), lse, batch, i);
    });
  });
}

/// dQ, dK, dV of attention, per leading index and key block, recomputing
/// each probability from the log-sum-exp; the multiply-adds kRowGroup rows
/// at a time.
void lowerAttentionGrad(OpBuilder &b, AttentionGradOp op) {
  AttentionEmitter e(b, op.getLoc(), op.getQuery(), op.getKey(), op.getValue(),
                     op.getKeyMask(), op.getCausal(),
                     op.getScale().convertToDouble());
  Location loc = op.getLoc();
  Value out = op.getOut(), lse = op.getLse(), gradOut = op.getGradOut();
  Value dq = op.getGradQuery(), dk = op.getGradKey(), dv = op.getGradValue();
  e.parallel(Value(), [&](ValueRange batch, Value) {
    Value keysTile = e.transposedTile(e.key);
    Value valuesTile = e.transposedTile(e.value);
    Value gradKeysTile = e.transposedTile(e.key);
    Value gradValuesTile = e.transposedTile(e.value);
    Value keys = e.rowTile(e.key, e.block, /*padded=*/true);
    Value gradQueries = e.rowTile(e.key, kRowGroup, /*padded=*/true);
    Value bias = e.laneRow();
    auto groupTile = [&] {
      return memref::AllocaOp::create(
                 b, loc, MemRefType::get({kRowGroup, e.block}, e.element))
          .getResult();
    };
    Value probabilities = groupTile();
    Value gradScores = groupTile();
    e.zero(dq, batch);
    Value rows = e.dim(e.query, e.rank - 2);
    Value features = e.dim(e.key, e.rank - 1);
    e.blocks(e.dim(e.key, e.rank - 2), [&](Value first, Value length) {
      e.transpose(e.key, batch, first, length, keysTile, bias);
      e.transpose(e.value, batch, first, length, valuesTile);
      e.copyRows(e.key, batch, first, length, keys);
      e.zeroTile(gradKeysTile, features);
      e.zeroTile(gradValuesTile, e.dim(e.value, e.rank - 1));
      // Causal: rows before the block's first key see none of it.
      Value firstRow =
          e.causal ? arith::MinUIOp::create(b, loc, first, rows).getResult()
                   : e.index(0);
      Value groups = arith::CeilDivUIOp::create(
          b, loc, arith::SubIOp::create(b, loc, rows, firstRow),
          e.index(kRowGroup));
      e.each(groups, [&](Value group) {
        // The group's rows; those past the last row are computed on the
        // first row with zero probabilities, and not written.
        SmallVector<Value> rowIndex, valid;
        Value start = arith::AddIOp::create(
            b, loc, firstRow,
            arith::MulIOp::create(b, loc, group, e.index(kRowGroup)));
        for (int64_t g = 0; g < kRowGroup; ++g) {
          Value i = arith::AddIOp::create(b, loc, start, e.index(g));
          Value inside =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, i, rows);
          valid.push_back(inside);
          rowIndex.push_back(
              arith::SelectOp::create(b, loc, inside, i, firstRow));
        }
        auto queryOf = [&](int64_t g, Value d) -> Value {
          return e.load(e.query, batch, rowIndex[g], d);
        };
        auto gradOutOf = [&](int64_t g, Value d) -> Value {
          return e.load(gradOut, batch, rowIndex[g], d);
        };
        e.projectGroup(
            [&](int64_t g, Value d) {
              return e.mul(queryOf(g, d), e.scaleValue);
            },
            keysTile, probabilities);
        // dP_ij = dO_i . v_j.
        e.projectGroup(gradOutOf, valuesTile, gradScores);
        for (int64_t g = 0; g < kRowGroup; ++g) {
          Value i = rowIndex[g];
          Value visible = e.visibleKeys(i, first, length);
          e.maskScores(probabilities, {e.index(g)}, bias, visible);
          // D_i = dO_i . O_i: the softmax Jacobian's row term.
          Value rowTerm = e.dot(gradOut, out, i, batch);
          // A row without keys (lse -inf) has probabilities 0.
          Value rowLse = e.shiftOf(e.load(lse, batch, i));
          e.lanes([&](Value c) {
            SmallVector<Value, 2> at{e.index(g), c};
            Value s = memref::LoadOp::create(b, loc, probabilities, at);
            Value p = arith::SelectOp::create(
                b, loc, valid[g], e.exp(e.sub(s, rowLse)), e.constant(0.0));
            memref::StoreOp::create(b, loc, p, probabilities, at);
            Value dp = memref::LoadOp::create(b, loc, gradScores, at);
            Value ds = e.mul(e.mul(p, e.sub(dp, rowTerm)), e.scaleValue);
            memref::StoreOp::create(b, loc, ds, gradScores, at);
          });
        }
        e.outerGroup(gradValuesTile, gradOutOf, probabilities);
        e.outerGroup(gradKeysTile, queryOf, gradScores);
        // dQ_i += sum_j dS_ij k_j, summed per block in a stack tile.
        e.each(e.index(kRowGroup), [&](Value g) {
          e.each(e.dim(gradQueries, 1), [&](Value column) {
            memref::StoreOp::create(b, loc, e.constant(0.0), gradQueries,
                                    ValueRange{g, column});
          });
        });
        e.accumulateGroup(gradQueries, e.index(0), gradScores, keys, length);
        for (int64_t g = 0; g < kRowGroup; ++g) {
          scf::IfOp::create(b, loc, valid[g], [&](OpBuilder &nested, Location) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(nested.getInsertionBlock());
            e.each(features, [&](Value d) {
              Value sum = memref::LoadOp::create(b, loc, gradQueries,
                                                 ValueRange{e.index(g), d});
              e.store(e.add(e.load(dq, batch, rowIndex[g], d), sum), dq, batch,
                      rowIndex[g], d);
            });
            scf::YieldOp::create(b, loc);
          });
        }
      });
      e.writeBack(gradKeysTile, dk, batch, first, length);
      e.writeBack(gradValuesTile, dv, batch, first, length);
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
