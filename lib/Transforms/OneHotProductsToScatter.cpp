//===- OneHotProductsToScatter.cpp - one-hot products as row scatters -----===//
//
// Implements `ckpt-one-hot-products-to-scatter`: a contraction of a one-hot
// matrix (tokens compared with an iota) with a matrix of rows becomes a loop
// that adds each row into the row of its token (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "ckpt-one-hot-products-to-scatter"

namespace mlir::ckpt {
#define GEN_PASS_DEF_ONEHOTPRODUCTSTOSCATTERPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// The loop dimensions an indexing map reads: each result is a dimension or
/// the constant 0 (a unit dimension); std::nullopt otherwise.
std::optional<SmallVector<std::optional<unsigned>>> readDims(AffineMap map) {
  SmallVector<std::optional<unsigned>> dims;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      dims.push_back(dim.getPosition());
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0)
      return std::nullopt;
    dims.push_back(std::nullopt);
  }
  return dims;
}

/// Whether `value` is an iota along its dimension `dim`: a generic with no
/// inputs whose payload yields `index_cast(linalg.index dim)` (the arange of
/// a one-hot comparison).
bool isIotaAlong(Value value, unsigned dim) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return false;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  auto cast = yield.getOperand(0).getDefiningOp<arith::IndexCastOp>();
  if (!cast)
    return false;
  auto index = cast.getIn().getDefiningOp<linalg::IndexOp>();
  return index && index.getDim() == dim;
}

/// A matched one-hot product: out[v, h] += (tokens[t] == iota[v]) * rows[t, h]
/// over the reduction dimension t.
struct OneHotProduct {
  linalg::GenericOp op;
  Value tokens, rows, init;
  /// Loop dimensions: the token (reduction), the output's row and column.
  unsigned t, v, h;
  /// Whether `rows` is stored (h, t) instead of (t, h).
  bool rowsTransposed;
  /// The position of `tokens` among the op's inputs.
  unsigned tokenInput;
  /// A condition on the token alone and-ed with the one-hot comparison (an
  /// embedding's padding index: `token != pad`), or null; `extraBound` is
  /// its other operand (defined outside the payload, or a constant in it).
  arith::CmpIOp extra;
  Value extraBound;
  bool extraTokenFirst = true;
};

/// Whether `value`, in the payload of a generic, is the index of loop
/// dimension `dim` as an integer: `index_cast(linalg.index dim)` (an iota
/// fused into the product).
bool isLoopIndex(Value value, unsigned dim) {
  auto cast = value.getDefiningOp<arith::IndexCastOp>();
  if (!cast)
    return false;
  auto index = cast.getIn().getDefiningOp<linalg::IndexOp>();
  return index && index.getDim() == dim;
}

/// Matches `generic` as a one-hot product (see OneHotProduct): the tokens
/// read along t only, compared with the row index v (an iota input read
/// along v only, or the loop index itself once the fusion has folded the
/// iota in), a matrix read along t and h, a 2-D output read along (v, h),
/// and the payload `out + uitofp(token == v) * row`, operands in either
/// order.
std::optional<OneHotProduct> matchOneHotProduct(linalg::GenericOp generic) {
  unsigned inputs = generic.getNumDpsInputs();
  if (!generic.hasPureTensorSemantics() || (inputs != 2 && inputs != 3) ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != 3 ||
      generic.getNumReductionLoops() != 1)
    return std::nullopt;
  auto outType = dyn_cast<RankedTensorType>(generic.getDpsInits()[0].getType());
  if (!outType || outType.getRank() != 2 || !outType.hasStaticShape() ||
      !isa<FloatType>(outType.getElementType()))
    return std::nullopt;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  std::optional<SmallVector<std::optional<unsigned>>> outDims =
      readDims(maps[inputs]);
  if (!outDims || !(*outDims)[0] || !(*outDims)[1])
    return std::nullopt;
  OneHotProduct match;
  match.op = generic;
  match.v = *(*outDims)[0];
  match.h = *(*outDims)[1];
  match.t = 3 - match.v - match.h;
  if (match.v == match.h || match.t > 2 ||
      generic.getIteratorTypesArray()[match.t] !=
          utils::IteratorType::reduction)
    return std::nullopt;

  // The payload: %c = cmpi eq %token, %index; %f = uitofp %c;
  // %p = mulf %f, %row; %s = addf %out, %p; yield %s (and, with the iota
  // fused in, %index = index_cast(linalg.index v)).
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto sum = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  BlockArgument out = body->getArgument(inputs);
  if (!sum || (sum.getLhs() != out && sum.getRhs() != out))
    return std::nullopt;
  auto product = (sum.getLhs() == out ? sum.getRhs() : sum.getLhs())
                     .getDefiningOp<arith::MulFOp>();
  if (!product)
    return std::nullopt;
  Value lhs = product.getLhs(), rhs = product.getRhs();
  auto indicator = lhs.getDefiningOp<arith::UIToFPOp>();
  Value row = rhs;
  if (!indicator) {
    indicator = rhs.getDefiningOp<arith::UIToFPOp>();
    row = lhs;
  }
  if (!indicator)
    return std::nullopt;
  // The indicator's condition: the one-hot comparison, or that and a
  // condition on the token (a padding index), `andi` in either order.
  auto compare = indicator.getIn().getDefiningOp<arith::CmpIOp>();
  if (auto both = indicator.getIn().getDefiningOp<arith::AndIOp>()) {
    auto lhsCompare = both.getLhs().getDefiningOp<arith::CmpIOp>();
    auto rhsCompare = both.getRhs().getDefiningOp<arith::CmpIOp>();
    if (!lhsCompare || !rhsCompare)
      return std::nullopt;
    // The one-hot comparison is the equality of two payload values; the
    // extra one compares the token with a bound (from outside, or a
    // constant).
    auto isOneHot = [&](arith::CmpIOp op) {
      auto inPayload = [&](Value value) {
        return value.getParentRegion() == &generic.getRegion() &&
               !value.getDefiningOp<arith::ConstantOp>();
      };
      return op.getPredicate() == arith::CmpIPredicate::eq &&
             inPayload(op.getLhs()) && inPayload(op.getRhs());
    };
    if (isOneHot(lhsCompare) == isOneHot(rhsCompare))
      return std::nullopt;
    compare = isOneHot(lhsCompare) ? lhsCompare : rhsCompare;
    match.extra = isOneHot(lhsCompare) ? rhsCompare : lhsCompare;
  }
  auto rowArg = dyn_cast<BlockArgument>(row);
  if (!compare || compare.getPredicate() != arith::CmpIPredicate::eq ||
      !rowArg || rowArg.getOwner() != body || rowArg.getArgNumber() >= inputs)
    return std::nullopt;

  auto readsOnly = [&](unsigned input, unsigned dim) {
    std::optional<SmallVector<std::optional<unsigned>>> dims =
        readDims(maps[input]);
    if (!dims)
      return false;
    bool found = false;
    for (std::optional<unsigned> d : *dims) {
      if (d && *d != dim)
        return false;
      found |= d.has_value();
    }
    return found;
  };
  // The token: an input read along t only; the other side of the
  // comparison is the row index v.
  auto isToken = [&](Value value) {
    auto arg = dyn_cast<BlockArgument>(value);
    return arg && arg.getOwner() == body && arg.getArgNumber() < inputs &&
           arg.getArgNumber() != rowArg.getArgNumber() &&
           readsOnly(arg.getArgNumber(), match.t);
  };
  auto isRowIndex = [&](Value value) {
    if (isLoopIndex(value, match.v))
      return inputs == 2;
    auto arg = dyn_cast<BlockArgument>(value);
    if (inputs != 3 || !arg || arg.getOwner() != body ||
        arg.getArgNumber() >= inputs ||
        arg.getArgNumber() == rowArg.getArgNumber() ||
        !readsOnly(arg.getArgNumber(), match.v))
      return false;
    // The iota counts along the dimension of its operand that v reads.
    std::optional<SmallVector<std::optional<unsigned>>> iotaDims =
        readDims(maps[arg.getArgNumber()]);
    unsigned iotaDim = 0;
    for (auto [position, dim] : llvm::enumerate(*iotaDims))
      if (dim)
        iotaDim = position;
    return isIotaAlong(generic.getDpsInputs()[arg.getArgNumber()], iotaDim);
  };
  Value token = compare.getLhs(), index = compare.getRhs();
  if (!isToken(token))
    std::swap(token, index);
  if (!isToken(token) || !isRowIndex(index) ||
      !cast<IntegerType>(token.getType()).isSignless())
    return std::nullopt;
  match.tokenInput = cast<BlockArgument>(token).getArgNumber();
  // The extra condition compares the token with a bound from outside the
  // payload (or a constant in it).
  unsigned expectedOps = inputs == 3 ? 5 : 7;
  if (match.extra) {
    Value other;
    if (match.extra.getLhs() == token) {
      other = match.extra.getRhs();
    } else if (match.extra.getRhs() == token) {
      other = match.extra.getLhs();
      match.extraTokenFirst = false;
    } else {
      return std::nullopt;
    }
    expectedOps += 2;
    if (other.getParentRegion() == &generic.getRegion()) {
      if (!other.getDefiningOp<arith::ConstantOp>())
        return std::nullopt;
      ++expectedOps;
    }
    match.extraBound = other;
  }
  if (body->getOperations().size() != expectedOps)
    return std::nullopt;

  // The rows: read along (t, h) or (h, t), a float of the output's type.
  std::optional<SmallVector<std::optional<unsigned>>> rowDims =
      readDims(maps[rowArg.getArgNumber()]);
  if (!rowDims || rowDims->size() != 2 || !(*rowDims)[0] || !(*rowDims)[1])
    return std::nullopt;
  if (*(*rowDims)[0] == match.t && *(*rowDims)[1] == match.h)
    match.rowsTransposed = false;
  else if (*(*rowDims)[0] == match.h && *(*rowDims)[1] == match.t)
    match.rowsTransposed = true;
  else
    return std::nullopt;
  match.rows = generic.getDpsInputs()[rowArg.getArgNumber()];
  if (getElementTypeOrSelf(match.rows.getType()) != outType.getElementType())
    return std::nullopt;
  match.tokens = generic.getDpsInputs()[match.tokenInput];
  if (!cast<RankedTensorType>(match.tokens.getType()).hasStaticShape() ||
      !cast<RankedTensorType>(match.rows.getType()).hasStaticShape())
    return std::nullopt;
  match.init = generic.getDpsInits()[0];
  return match;
}

/// Rewrites a one-hot product into an scf.for over the tokens that adds row
/// t into row tokens[t] of the accumulator (in place, no allocation): the
/// same sums in the same order, without the products by zero. A token
/// outside [0, V) matches no row of the one-hot matrix; it adds its row times
/// 0.0 to row 0 instead, as the product would to every row.
void rewriteAsScatter(const OneHotProduct &match) {
  linalg::GenericOp generic = match.op;
  OpBuilder builder(generic);
  Location loc = generic.getLoc();
  auto outType = cast<RankedTensorType>(match.init.getType());
  Type element = outType.getElementType();
  auto rowsType = cast<RankedTensorType>(match.rows.getType());
  auto tokensType = cast<RankedTensorType>(match.tokens.getType());
  auto tokenType = cast<IntegerType>(tokensType.getElementType());
  AffineMap tokenMap = generic.getIndexingMapsArray()[match.tokenInput];

  // The sizes: T tokens, V rows of the output, H columns.
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  int64_t tokens = ranges[match.t], vocabulary = ranges[match.v],
          width = ranges[match.h];

  auto indexConstant = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value zero = indexConstant(builder, 0), one = indexConstant(builder, 1),
        count = indexConstant(builder, tokens);
  Attribute phase = generic->getAttr(CkptDialect::getPhaseAttrName());
  auto loop = scf::ForOp::create(
      builder, loc, zero, count, one, ValueRange{match.init},
      [&](OpBuilder &b, Location loc, Value t, ValueRange iterArgs) {
        Value acc = iterArgs[0];
        // tokens[...t...]: the map's dimension t, zeros elsewhere.
        SmallVector<Value> tokenIndices;
        for (AffineExpr expr : tokenMap.getResults())
          tokenIndices.push_back(
              isa<AffineDimExpr>(expr) ? t : indexConstant(b, 0));
        Value token =
            tensor::ExtractOp::create(b, loc, match.tokens, tokenIndices);
        Value low = arith::ConstantIntOp::create(b, loc, tokenType, 0);
        Value high =
            arith::ConstantIntOp::create(b, loc, tokenType, vocabulary);
        Value aboveLow = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sge, token, low);
        Value belowHigh = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, token, high);
        Value inRange = arith::AndIOp::create(b, loc, aboveLow, belowHigh);
        // The token's own condition (a padding index) weighs its row too.
        Value counted = inRange;
        if (match.extra) {
          Value bound = match.extraBound;
          if (bound.getParentRegion() == &generic.getRegion())
            bound = b.clone(*bound.getDefiningOp())->getResult(0);
          Value lhs = match.extraTokenFirst ? token : bound;
          Value rhs = match.extraTokenFirst ? bound : token;
          Value condition = arith::CmpIOp::create(
              b, loc, arith::CmpIOp(match.extra).getPredicate(), lhs, rhs);
          counted = arith::AndIOp::create(b, loc, inRange, condition);
        }
        Value clamped = arith::SelectOp::create(b, loc, inRange, token, low);
        Value v = arith::IndexCastOp::create(b, loc, b.getIndexType(), clamped);
        Value weight = arith::SelectOp::create(
            b, loc, counted,
            arith::ConstantOp::create(b, loc, element,
                                      b.getFloatAttr(element, 1.0)),
            arith::ConstantOp::create(b, loc, element,
                                      b.getFloatAttr(element, 0.0)));

        // Row `position` of a 2-D tensor of `type` (a column when
        // `transposed`), as slice offsets, sizes and strides.
        struct Row {
          SmallVector<OpFoldResult> offsets, sizes, strides;
        };
        auto rowOf = [&](RankedTensorType type, Value position,
                         bool transposed) {
          Row row{SmallVector<OpFoldResult>(2, b.getIndexAttr(0)),
                  {b.getIndexAttr(type.getDimSize(0)),
                   b.getIndexAttr(type.getDimSize(1))},
                  SmallVector<OpFoldResult>(2, b.getIndexAttr(1))};
          unsigned along = transposed ? 1 : 0;
          row.offsets[along] = position;
          row.sizes[along] = b.getIndexAttr(1);
          return row;
        };
        auto extractRow = [&](Value source, const Row &row) {
          auto type = cast<RankedTensorType>(source.getType());
          return tensor::ExtractSliceOp::create(
              b, loc, RankedTensorType::get({width}, type.getElementType()),
              source, row.offsets, row.sizes, row.strides);
        };
        // The output is (v, h): its row v takes row t of the matrix.
        Row targetRow = rowOf(outType, v, /*transposed=*/false);
        Value row =
            extractRow(match.rows, rowOf(rowsType, t, match.rowsTransposed));
        Value target = extractRow(acc, targetRow);
        AffineMap identity = b.getMultiDimIdentityMap(1);
        auto add = linalg::GenericOp::create(
            b, loc, target.getType(), row, target,
            ArrayRef<AffineMap>{identity, identity},
            ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
            [&](OpBuilder &nested, Location loc, ValueRange args) {
              Value scaled =
                  arith::MulFOp::create(nested, loc, weight, args[0]);
              Value total = arith::AddFOp::create(nested, loc, args[1], scaled);
              linalg::YieldOp::create(nested, loc, total);
            });
        Value updated = tensor::InsertSliceOp::create(
            b, loc, add.getResult(0), acc, targetRow.offsets, targetRow.sizes,
            targetRow.strides);
        scf::YieldOp::create(b, loc, updated);
      });
  // The loop is the op the annotations describe; its ops take the phase.
  for (NamedAttribute attribute : generic->getDiscardableAttrs())
    loop->setAttr(attribute.getName(), attribute.getValue());
  if (phase)
    loop.getBody()->walk([&](Operation *op) {
      op->setAttr(CkptDialect::getPhaseAttrName(), phase);
    });
  generic->replaceAllUsesWith(loop->getResults());
  generic->erase();
}

struct OneHotProductsToScatterPass
    : public mlir::ckpt::impl::OneHotProductsToScatterPassBase<
          OneHotProductsToScatterPass> {
  void runOnOperation() override {
    SmallVector<OneHotProduct> matches;
    getOperation()->walk([&](linalg::GenericOp generic) {
      if (std::optional<OneHotProduct> match = matchOneHotProduct(generic))
        matches.push_back(*match);
    });
    for (const OneHotProduct &match : matches)
      rewriteAsScatter(match);
  }
};

} // namespace
