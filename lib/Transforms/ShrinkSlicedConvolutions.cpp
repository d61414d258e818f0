//===- ShrinkSlicedConvolutions.cpp - compute only the sliced window ------===//
//
// Implements `ckpt-shrink-sliced-convolutions`: a 2-D convolution read only
// through a slice of its spatial positions from the origin becomes the
// convolution with that smaller output (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "ckpt-shrink-sliced-convolutions"

namespace mlir::ckpt {
#define GEN_PASS_DEF_SHRINKSLICEDCONVOLUTIONSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;

namespace {

/// `slice` of the result of a `ConvOp` whose output dimensions
/// `spatialDims` are the window's: the convolution computing only the
/// slice's positions.
template <typename ConvOp>
struct ShrinkSlicedConvolution
    : public OpRewritePattern<tensor::ExtractSliceOp> {
  ShrinkSlicedConvolution(MLIRContext *context,
                          std::array<unsigned, 2> spatialDims)
      : OpRewritePattern(context), spatialDims(spatialDims) {}

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto conv = slice.getSource().template getDefiningOp<ConvOp>();
    if (!conv || !conv.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(slice, "not a convolution's result");
    if (!conv->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(slice, "the result has other readers");
    auto outputType = cast<RankedTensorType>(conv->getResult(0).getType());
    RankedTensorType sliceType = slice.getResultType();
    if (!outputType.hasStaticShape() ||
        sliceType.getRank() != outputType.getRank() || !slice.hasUnitStride() ||
        !sliceType.hasStaticShape())
      return rewriter.notifyMatchFailure(slice, "not a static window");
    for (OpFoldResult offset : slice.getMixedOffsets())
      if (!isConstantIntValue(offset, 0))
        return rewriter.notifyMatchFailure(slice, "not from the origin");
    for (unsigned dim = 0, rank = outputType.getRank(); dim < rank; ++dim)
      if (!llvm::is_contained(spatialDims, dim) &&
          sliceType.getDimSize(dim) != outputType.getDimSize(dim))
        return rewriter.notifyMatchFailure(slice, "drops images or filters");
    if (sliceType == outputType)
      return rewriter.notifyMatchFailure(slice, "keeps the whole output");

    Location loc = conv.getLoc();
    Value init = conv.getOutputs()[0];
    Value window;
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      auto empty = tensor::EmptyOp::create(rewriter, loc, sliceType.getShape(),
                                           sliceType.getElementType());
      window = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0],
                                      empty.getResult())
                   .getResult(0);
    } else {
      window = tensor::ExtractSliceOp::create(
          rewriter, loc, sliceType, init, slice.getMixedOffsets(),
          slice.getMixedSizes(), slice.getMixedStrides());
    }
    auto smaller =
        ConvOp::create(rewriter, loc, TypeRange{sliceType}, conv.getInputs(),
                       ValueRange{window}, conv->getAttrs());
    rewriter.replaceOp(slice, smaller->getResults());
    rewriter.eraseOp(conv);
    return success();
  }

private:
  std::array<unsigned, 2> spatialDims;
};

/// `slice` of a `tensor.collapse_shape` of a grouped convolution's result
/// (a grouped weight gradient merges groups and filters): the collapse of
/// the matching slice of the convolution, when the slice keeps every merged
/// dimension whole, so that ShrinkSlicedConvolution then applies.
struct SliceBeforeCollapse : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto collapse = slice.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !collapse->hasOneUse())
      return rewriter.notifyMatchFailure(slice, "not a collapse's one reader");
    auto conv = collapse.getSrc().getDefiningOp<linalg::Conv2DNgchwGfchwOp>();
    if (!conv || !conv->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(slice, "not a grouped convolution's");
    RankedTensorType sourceType = collapse.getSrcType();
    RankedTensorType collapsedType = collapse.getResultType();
    if (!sourceType.hasStaticShape() || !slice.hasUnitStride() ||
        slice.getResultType().getRank() != collapsedType.getRank())
      return rewriter.notifyMatchFailure(slice, "not a static window");
    SmallVector<OpFoldResult> offsets, sizes;
    SmallVector<OpFoldResult> strides(sourceType.getRank(),
                                      rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sliceOffsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sliceSizes = slice.getMixedSizes();
    for (auto [dim, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      OpFoldResult offset = sliceOffsets[dim];
      OpFoldResult size = sliceSizes[dim];
      if (group.size() == 1) {
        offsets.push_back(offset);
        sizes.push_back(size);
        continue;
      }
      if (!isConstantIntValue(offset, 0) ||
          !isConstantIntValue(size, collapsedType.getDimSize(dim)))
        return rewriter.notifyMatchFailure(slice, "cuts a merged dimension");
      for (int64_t inner : group) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(rewriter.getIndexAttr(sourceType.getDimSize(inner)));
      }
    }
    auto window = tensor::ExtractSliceOp::create(
        rewriter, slice.getLoc(), collapse.getSrc(), offsets, sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        slice, slice.getResultType(), window.getResult(),
        collapse.getReassociationIndices());
    return success();
  }
};

struct ShrinkSlicedConvolutionsPass
    : public mlir::ckpt::impl::ShrinkSlicedConvolutionsPassBase<
          ShrinkSlicedConvolutionsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<ShrinkSlicedConvolution<linalg::Conv2DNchwFchwOp>>(
        context, std::array<unsigned, 2>{2, 3});
    patterns.add<ShrinkSlicedConvolution<linalg::Conv2DNhwcHwcfOp>>(
        context, std::array<unsigned, 2>{1, 2});
    patterns.add<ShrinkSlicedConvolution<linalg::Conv2DNgchwGfchwOp>>(
        context, std::array<unsigned, 2>{3, 4});
    patterns.add<SliceBeforeCollapse>(context);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
