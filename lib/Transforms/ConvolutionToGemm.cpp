//===- ConvolutionToGemm.cpp - 2-D convolutions as im2col and a GEMM ------===//
//
// Implements `ckpt-convolution-to-gemm`: a linalg.conv_2d_nchw_fchw on
// tensors becomes an im2col copy, one linalg.matmul and a transpose back to
// NCHW (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "ckpt-convolution-to-gemm"

namespace mlir::ckpt {
#define GEN_PASS_DEF_CONVOLUTIONTOGEMMPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// The two values of a convolution's `strides` or `dilations` attribute.
std::optional<std::array<int64_t, 2>> pairOf(DenseIntElementsAttr attr) {
  if (!attr || attr.getNumElements() != 2)
    return std::nullopt;
  auto values = attr.getValues<int64_t>();
  return std::array<int64_t, 2>{values[0], values[1]};
}

/// Gives the ops a rewrite of `from` created its phase, and `result`'s
/// producer (the op whose tensor replaces the convolution's) its other ckpt
/// annotations (name, policy): they describe that value.
void takeAnnotations(Operation *from, ArrayRef<Operation *> created,
                     Value result) {
  if (Attribute phase = from->getAttr(CkptDialect::getPhaseAttrName()))
    for (Operation *op : created)
      op->setAttr(CkptDialect::getPhaseAttrName(), phase);
  Operation *producer = result.getDefiningOp();
  while (producer && isa<tensor::ExpandShapeOp>(producer))
    producer = producer->getOperand(0).getDefiningOp();
  if (producer)
    CkptDialect::copyAnnotations(from, producer);
}

/// What both layouts need to know of a convolution.
struct Convolution {
  RankedTensorType input, filter, output;
  std::array<int64_t, 2> strides, dilations;
};

/// The operand types and the window of `conv` when it is a static f32 or
/// f64 convolution on tensors.
template <typename ConvOp>
FailureOr<Convolution> matchConvolution(ConvOp conv,
                                        PatternRewriter &rewriter) {
  if (!conv.hasPureTensorSemantics())
    return rewriter.notifyMatchFailure(conv, "not on tensors");
  auto input = dyn_cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filter = dyn_cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto output = dyn_cast<RankedTensorType>(conv.getOutputs()[0].getType());
  if (!input || !filter || !output || !input.hasStaticShape() ||
      !filter.hasStaticShape() || !output.hasStaticShape())
    return rewriter.notifyMatchFailure(conv, "dynamic shape");
  Type element = output.getElementType();
  if ((!element.isF32() && !element.isF64()) ||
      input.getElementType() != element || filter.getElementType() != element)
    return rewriter.notifyMatchFailure(conv, "not f32 or f64 throughout");
  std::optional<std::array<int64_t, 2>> strides = pairOf(conv.getStrides());
  std::optional<std::array<int64_t, 2>> dilations = pairOf(conv.getDilations());
  if (!strides || !dilations)
    return rewriter.notifyMatchFailure(conv, "unexpected strides");
  return Convolution{input, filter, output, *strides, *dilations};
}

/// The patches of `input` as a matrix: a linalg.generic copies element
/// `[d0..d5]` of a new tensor of `shape` from `input[read(d0..d5)]`, and the
/// result is collapsed to (d0*d1*d2) x (d3*d4*d5).
Value copyPatches(PatternRewriter &rewriter, Location loc, Value input,
                  ArrayRef<int64_t> shape, AffineMap read,
                  SmallVectorImpl<Operation *> &created) {
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  auto empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  AffineMap write =
      AffineMap::getMultiDimIdentityMap(shape.size(), rewriter.getContext());
  auto copy = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), input, ValueRange{empty},
      ArrayRef<AffineMap>{read, write},
      SmallVector<utils::IteratorType>(shape.size(),
                                       utils::IteratorType::parallel),
      [](OpBuilder &builder, Location loc, ValueRange args) {
        linalg::YieldOp::create(builder, loc, args[0]);
      });
  created.append({empty, copy});
  return tensor::CollapseShapeOp::create(
      rewriter, loc, copy.getResult(0),
      ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
}

/// NCHW input, FCHW filter: patches as (C*KH*KW) x (N*OH*OW), the product
/// filters x patches as (F) x (N*OH*OW), transposed back to NCHW.
struct NchwConvolutionAsGemm
    : public OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    FailureOr<Convolution> matched = matchConvolution(conv, rewriter);
    if (failed(matched))
      return failure();
    RankedTensorType outputType = matched->output;
    Type element = outputType.getElementType();
    const std::array<int64_t, 2> &strides = matched->strides;
    const std::array<int64_t, 2> &dilations = matched->dilations;

    ArrayRef<int64_t> in = matched->input.getShape();      // N, C, H, W
    ArrayRef<int64_t> filter = matched->filter.getShape(); // F, C, KH, KW
    ArrayRef<int64_t> out = outputType.getShape();         // N, F, OH, OW
    int64_t n = in[0], c = in[1], f = filter[0], kh = filter[2], kw = filter[3],
            oh = out[2], ow = out[3];
    int64_t positions = n * oh * ow;
    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<Operation *> created;

    // col[c, kh, kw, n, oh, ow] = input[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1].
    AffineExpr dc, dkh, dkw, dn, doh, dow;
    bindDims(context, dc, dkh, dkw, dn, doh, dow);
    AffineMap read =
        AffineMap::get(6, 0,
                       {dn, dc, doh * strides[0] + dkh * dilations[0],
                        dow * strides[1] + dkw * dilations[1]},
                       context);
    Value colMatrix = copyPatches(rewriter, loc, conv.getInputs()[0],
                                  {c, kh, kw, n, oh, ow}, read, created);
    auto filterMatrix = tensor::CollapseShapeOp::create(
        rewriter, loc, conv.getInputs()[1],
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});

    // The initial value as (F, N*OH*OW): a fill is made anew at that shape,
    // anything else is transposed (N, F, OH, OW) -> (F, N, OH, OW).
    Value init = conv.getOutputs()[0];
    auto productType = RankedTensorType::get({f, positions}, element);
    Value accumulator;
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      auto empty = tensor::EmptyOp::create(rewriter, loc,
                                           productType.getShape(), element);
      auto refill = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0],
                                           empty.getResult());
      created.append({empty, refill});
      accumulator = refill.getResult(0);
    } else if (n == 1) {
      accumulator = tensor::CollapseShapeOp::create(
          rewriter, loc, productType, init,
          ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    } else {
      auto empty = tensor::EmptyOp::create(
          rewriter, loc, ArrayRef<int64_t>{f, n, oh, ow}, element);
      auto transposed =
          linalg::TransposeOp::create(rewriter, loc, init, empty.getResult(),
                                      ArrayRef<int64_t>{1, 0, 2, 3});
      created.append({empty, transposed});
      accumulator = tensor::CollapseShapeOp::create(
          rewriter, loc, productType, transposed->getResult(0),
          ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    }
    auto product = linalg::MatmulOp::create(
        rewriter, loc, TypeRange{productType},
        ValueRange{filterMatrix, colMatrix}, ValueRange{accumulator});
    created.push_back(product);

    Value result;
    if (n == 1) {
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, outputType, product.getResult(0),
          ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    } else {
      auto grid = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({f, n, oh, ow}, element),
          product.getResult(0), ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
      auto empty = tensor::EmptyOp::create(rewriter, loc, out, element);
      auto back = linalg::TransposeOp::create(rewriter, loc, grid.getResult(),
                                              empty.getResult(),
                                              ArrayRef<int64_t>{1, 0, 2, 3});
      created.append({empty, back});
      result = back->getResult(0);
    }
    takeAnnotations(conv, created, result);
    rewriter.replaceOp(conv, result);
    return success();
  }
};

/// NHWC input, HWCF filter: the patches as (N*OH*OW) x (KH*KW*C) times the
/// filter as (KH*KW*C) x (F) is the output, (N*OH*OW) x (F), as it is laid
/// out: no transposes.
struct NhwcConvolutionAsGemm
    : public OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp conv,
                                PatternRewriter &rewriter) const override {
    FailureOr<Convolution> matched = matchConvolution(conv, rewriter);
    if (failed(matched))
      return failure();
    const std::array<int64_t, 2> &strides = matched->strides;
    const std::array<int64_t, 2> &dilations = matched->dilations;
    ArrayRef<int64_t> in = matched->input.getShape();      // N, H, W, C
    ArrayRef<int64_t> filter = matched->filter.getShape(); // KH, KW, C, F
    ArrayRef<int64_t> out = matched->output.getShape();    // N, OH, OW, F
    int64_t n = in[0], c = in[3], kh = filter[0], kw = filter[1], oh = out[1],
            ow = out[2];
    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<Operation *> created;

    // col[n, oh, ow, kh, kw, c] = input[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c].
    AffineExpr dn, doh, dow, dkh, dkw, dc;
    bindDims(context, dn, doh, dow, dkh, dkw, dc);
    AffineMap read = AffineMap::get(6, 0,
                                    {dn, doh * strides[0] + dkh * dilations[0],
                                     dow * strides[1] + dkw * dilations[1], dc},
                                    context);
    Value colMatrix = copyPatches(rewriter, loc, conv.getInputs()[0],
                                  {n, oh, ow, kh, kw, c}, read, created);
    auto filterMatrix = tensor::CollapseShapeOp::create(
        rewriter, loc, conv.getInputs()[1],
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    auto init = tensor::CollapseShapeOp::create(
        rewriter, loc, conv.getOutputs()[0],
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    auto product = linalg::MatmulOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{colMatrix, filterMatrix}, ValueRange{init});
    created.push_back(product);
    auto result = tensor::ExpandShapeOp::create(
        rewriter, loc, matched->output, product.getResult(0),
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    takeAnnotations(conv, created, result.getResult());
    rewriter.replaceOp(conv, result.getResult());
    return success();
  }
};

struct ConvolutionToGemmPass
    : public mlir::ckpt::impl::ConvolutionToGemmPassBase<
          ConvolutionToGemmPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NchwConvolutionAsGemm, NhwcConvolutionAsGemm>(&getContext());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
