//===- ForwardWindows.cpp - backwards windows read forwards ---------------===//
//
// Implements `ckpt-forward-windows`: a reduction loop that a map reads with
// coefficient -1 (the input gradient of a convolution) is replaced by its
// reverse, K - 1 - d, so that every window runs forwards; operands indexing
// the loop plainly are read from reversed copies.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ckpt {
#define GEN_PASS_DEF_FORWARDWINDOWSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// The coefficient of `dim` in the affine expression `expr` when `expr` is
/// linear in it (a sum of terms, each a dim, a constant or a constant
/// multiple of a dim); std::nullopt otherwise.
std::optional<int64_t> coefficientOf(AffineExpr expr, unsigned dim) {
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return d.getPosition() == dim ? 1 : 0;
  if (isa<AffineConstantExpr, AffineSymbolExpr>(expr))
    return 0;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (binary.getKind() == AffineExprKind::Add) {
    std::optional<int64_t> lhs = coefficientOf(binary.getLHS(), dim);
    std::optional<int64_t> rhs = coefficientOf(binary.getRHS(), dim);
    if (!lhs || !rhs)
      return std::nullopt;
    return *lhs + *rhs;
  }
  if (binary.getKind() == AffineExprKind::Mul) {
    auto constant = dyn_cast<AffineConstantExpr>(binary.getRHS());
    std::optional<int64_t> inner = coefficientOf(binary.getLHS(), dim);
    if (!constant || !inner)
      return std::nullopt;
    return *inner * constant.getValue();
  }
  // mod, floordiv, ceildiv: not linear.
  if (!expr.isFunctionOfDim(dim))
    return 0;
  return std::nullopt;
}

/// True when the reduction loop `dim` (of `extent` iterations) of `generic`
/// should be flipped: some input map reads it with coefficient -1, and every
/// map result using it reads it either plainly (`d`, along a tensor
/// dimension of `extent` elements, which a reversed copy mirrors) or with
/// coefficient -1.
bool shouldFlip(linalg::GenericOp generic, unsigned dim, int64_t extent) {
  bool backwards = false;
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    for (auto [position, result] : llvm::enumerate(map.getResults())) {
      if (!result.isFunctionOfDim(dim))
        continue;
      if (generic.isDpsInit(&operand) || !type)
        return false;
      if (auto d = dyn_cast<AffineDimExpr>(result);
          d && d.getPosition() == dim) {
        if (type.getDimSize(position) != extent)
          return false;
        continue;
      }
      std::optional<int64_t> coefficient = coefficientOf(result, dim);
      if (coefficient != -1)
        return false;
      backwards = true;
    }
  }
  return backwards;
}

/// A copy of `tensor` reversed along `dims` (a gather: each element reads
/// the mirrored one).
Value reverse(RewriterBase &rewriter, Location loc, Value tensor,
              ArrayRef<unsigned> dims) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, type, ValueRange{}, ValueRange{empty},
      ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(type.getRank())},
      parallel, [&](OpBuilder &builder, Location nested, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < type.getRank(); ++d) {
          Value index = linalg::IndexOp::create(builder, nested, d);
          if (llvm::is_contained(dims, d)) {
            Value last = arith::ConstantIndexOp::create(builder, nested,
                                                        type.getDimSize(d) - 1);
            index = arith::SubIOp::create(builder, nested, last, index);
          }
          indices.push_back(index);
        }
        Value element =
            tensor::ExtractOp::create(builder, nested, tensor, indices);
        linalg::YieldOp::create(builder, nested, element);
      });
  return copy.getResult(0);
}

/// Flips the qualifying reduction loops of `generic`; false when none
/// qualifies.
bool flipWindows(RewriterBase &rewriter, linalg::GenericOp generic) {
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  SmallVector<unsigned> flipped;
  for (unsigned dim = 0; dim < generic.getNumLoops(); ++dim)
    if (iterators[dim] == utils::IteratorType::reduction &&
        !ShapedType::isDynamic(ranges[dim]) &&
        shouldFlip(generic, dim, ranges[dim]))
      flipped.push_back(dim);
  if (flipped.empty())
    return false;

  MLIRContext *context = generic.getContext();
  unsigned numLoops = generic.getNumLoops();
  SmallVector<AffineExpr> substitution;
  for (unsigned dim = 0; dim < numLoops; ++dim) {
    AffineExpr d = getAffineDimExpr(dim, context);
    substitution.push_back(
        llvm::is_contained(flipped, dim)
            ? getAffineConstantExpr(ranges[dim] - 1, context) - d
            : d);
  }
  rewriter.setInsertionPoint(generic);
  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (OpOperand *operand : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(operand);
    SmallVector<AffineExpr> results;
    SmallVector<unsigned> reversedDims;
    for (auto [position, result] : llvm::enumerate(map.getResults())) {
      auto d = dyn_cast<AffineDimExpr>(result);
      if (d && llvm::is_contained(flipped, d.getPosition())) {
        results.push_back(result);
        reversedDims.push_back(position);
        continue;
      }
      results.push_back(
          simplifyAffineExpr(result.replaceDims(substitution), numLoops, 0));
    }
    maps.push_back(AffineMap::get(numLoops, 0, results, context));
    Value input = operand->get();
    if (!reversedDims.empty())
      input = reverse(rewriter, generic.getLoc(), input, reversedDims);
    inputs.push_back(input);
  }
  for (OpOperand &init : generic.getDpsInitsMutable())
    maps.push_back(generic.getMatchingIndexingMap(&init));
  rewriter.modifyOpInPlace(generic, [&] {
    generic.getInputsMutable().assign(inputs);
    generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return true;
}

struct ForwardWindowsPass
    : public mlir::ckpt::impl::ForwardWindowsPassBase<ForwardWindowsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk(
        [&](linalg::GenericOp generic) { generics.push_back(generic); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp generic : generics)
      flipWindows(rewriter, generic);
  }
};

} // namespace
