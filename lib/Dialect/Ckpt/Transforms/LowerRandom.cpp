//===- LowerRandom.cpp - ckpt.random_uniform to linalg --------------------===//
//
// Implements `ckpt-lower-random`: Philox-4x32-10 (Salmon et al., SC 2011) in
// arith integer ops inside a linalg.generic, one block per element.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "ckpt-lower-random"

namespace mlir::ckpt {
#define GEN_PASS_DEF_LOWERRANDOMPASS
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

// Philox-4x32 constants: round multipliers and Weyl key increments.
constexpr uint32_t kPhiloxM0 = 0xD2511F53;
constexpr uint32_t kPhiloxM1 = 0xCD9E8D57;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9;
constexpr uint32_t kPhiloxW1 = 0xBB67AE85;
constexpr int kPhiloxRounds = 10;

/// Emits Philox-4x32-10 on counter `c` and key `k` (i32 values) and returns
/// the four output words.
SmallVector<Value, 4> emitPhilox(OpBuilder &b, Location loc,
                                 SmallVector<Value, 4> c,
                                 SmallVector<Value, 2> k) {
  auto i32 = b.getI32Type();
  auto constant = [&](uint32_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, i32, b.getIntegerAttr(i32, static_cast<int32_t>(v)));
  };
  Value m0 = constant(kPhiloxM0), m1 = constant(kPhiloxM1);
  Value w0 = constant(kPhiloxW0), w1 = constant(kPhiloxW1);
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k[0] = arith::AddIOp::create(b, loc, k[0], w0);
      k[1] = arith::AddIOp::create(b, loc, k[1], w1);
    }
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c[2]);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c[1]), k[0]);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c[3]), k[1]);
    c = {n0, p1.getLow(), n2, p0.getLow()};
  }
  return c;
}

void lowerRandomUniform(RewriterBase &rewriter, RandomUniformOp op) {
  Location loc = op.getLoc();
  RankedTensorType type = op.getType();
  int64_t rank = type.getRank();
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value seed = op.getSeed(), offset = op.getOffset();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{empty}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange) {
        auto i64 = b.getI64Type(), i32 = b.getI32Type();
        // Row-major linear index of the element.
        Value linear = arith::ConstantIndexOp::create(b, l, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value extent =
              arith::ConstantIndexOp::create(b, l, type.getDimSize(d));
          linear = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, linear, extent),
              linalg::IndexOp::create(b, l, d));
        }
        Value counter = arith::AddIOp::create(
            b, l, offset, arith::IndexCastUIOp::create(b, l, i64, linear));
        Value thirtyTwo = arith::ConstantIntOp::create(b, l, i64, 32);
        auto low = [&](Value v) -> Value {
          return arith::TruncIOp::create(b, l, i32, v);
        };
        auto high = [&](Value v) -> Value {
          return low(arith::ShRUIOp::create(b, l, v, thirtyTwo));
        };
        Value zero = arith::ConstantIntOp::create(b, l, i32, 0);
        SmallVector<Value, 4> words =
            emitPhilox(b, l, {low(counter), high(counter), zero, zero},
                       {low(seed), high(seed)});

        Type elementType = type.getElementType();
        Value result;
        if (elementType.isF32()) {
          // Top 24 bits -> [0, 1) with 2^-24 steps: exact in f32.
          Value bits = arith::ShRUIOp::create(
              b, l, words[0], arith::ConstantIntOp::create(b, l, i32, 8));
          Value asFloat = arith::UIToFPOp::create(b, l, elementType, bits);
          result = arith::MulFOp::create(
              b, l, asFloat,
              arith::ConstantOp::create(b, l, elementType,
                                        b.getF32FloatAttr(0x1.0p-24f)));
        } else {
          // 53 bits of (word0 << 32 | word1) -> [0, 1): exact in f64.
          Value hi = arith::ExtUIOp::create(b, l, i64, words[0]);
          Value lo = arith::ExtUIOp::create(b, l, i64, words[1]);
          Value both = arith::OrIOp::create(
              b, l, arith::ShLIOp::create(b, l, hi, thirtyTwo), lo);
          Value bits = arith::ShRUIOp::create(
              b, l, both, arith::ConstantIntOp::create(b, l, i64, 11));
          Value asFloat = arith::UIToFPOp::create(b, l, elementType, bits);
          result = arith::MulFOp::create(
              b, l, asFloat,
              arith::ConstantOp::create(b, l, elementType,
                                        b.getF64FloatAttr(0x1.0p-53)));
        }
        linalg::YieldOp::create(b, l, result);
      });
  rewriter.replaceOp(op, generic.getResults());
}

struct LowerRandomPass
    : public mlir::ckpt::impl::LowerRandomPassBase<LowerRandomPass> {
  void runOnOperation() override {
    SmallVector<RandomUniformOp> ops;
    getOperation()->walk([&](RandomUniformOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (RandomUniformOp op : ops) {
      rewriter.setInsertionPoint(op);
      lowerRandomUniform(rewriter, op);
    }
  }
};

} // namespace
