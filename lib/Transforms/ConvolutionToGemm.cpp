//===- ConvolutionToGemm.cpp - 2-D convolutions as im2col and a GEMM ------===//
//
// Implements `ckpt-convolution-to-gemm`: a 2-D convolution on tensors becomes
// im2col copies and linalg.matmul ops, for the whole batch or in a loop over
// chunks of images (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Transforms/ConvolutionToGemm.h"

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/FillValue.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
Value copyPatches(OpBuilder &builder, Location loc, Value input,
                  ArrayRef<int64_t> shape, AffineMap read,
                  SmallVectorImpl<Operation *> &created) {
  Type element = cast<RankedTensorType>(input.getType()).getElementType();
  auto empty = tensor::EmptyOp::create(builder, loc, shape, element);
  AffineMap write =
      AffineMap::getMultiDimIdentityMap(shape.size(), builder.getContext());
  auto copy = linalg::GenericOp::create(
      builder, loc, empty.getType(), input, ValueRange{empty},
      ArrayRef<AffineMap>{read, write},
      SmallVector<utils::IteratorType>(shape.size(),
                                       utils::IteratorType::parallel),
      [](OpBuilder &builder, Location loc, ValueRange args) {
        linalg::YieldOp::create(builder, loc, args[0]);
      });
  auto matrix = tensor::CollapseShapeOp::create(
      builder, loc, copy.getResult(0),
      ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
  created.append({empty, copy});
  return matrix;
}

/// The GEMM of a convolution: the filters (as a matrix) times the patches of
/// the input, or the patches times the filters, accumulated into a tensor
/// whose dimension `imageDim` runs over the images, `imageExtent` entries
/// each.
struct PatchProduct {
  /// The patch tensor of `chunk` images (before its collapse to a matrix).
  SmallVector<int64_t, 6> patchShape;
  /// Element of the input each patch element copies (image indices relative
  /// to the chunk).
  AffineMap read;
  /// Whether the patches are the left operand (NHWC) or the right (NCHW).
  bool patchesLeft;
  /// The accumulator's dimension over the images, and its entries per image.
  unsigned imageDim;
  int64_t imageExtent;
  /// Images in the batch, and per chunk (a divisor of `batch`).
  int64_t batch;
  int64_t chunk;
  /// Chunks of input channels instead of images (NCHW only): each chunk's
  /// patches, `chunk` channels of the input's, are multiplied by the filter
  /// columns of its channels (patchShape's KH*KW per channel), and every
  /// product is added into the whole accumulator.
  bool chunkChannels = false;
  /// The input is read through a (1, 0, 2, 3) transpose: the source of it,
  /// stored (C, N, H, W), is sliced and read instead (a weight gradient's
  /// input, whose images are the convolution's channels).
  bool inputTransposed = false;
  /// With chunks of one channel: the source of a (1, 0, 2, 3) transpose the
  /// filters are, stored (C, F, KH, KW), whose slice for one channel is the
  /// filter columns of that channel as they are laid out (a weight
  /// gradient's output gradient, one image at a time).
  Value filterSource;
  /// Chunks of one image multiplied into the accumulator laid out as the
  /// output, (N, F, OH, OW): each image's product, (F) x (OH*OW), is a
  /// block of it, so neither the initial value nor the result is
  /// transposed.
  bool imagesInPlace = false;
  /// The filter matrix is stored transposed, (C*KH*KW) x (F): a 1x1
  /// convolution's filters that are a (1, 0, 2, 3) transpose of another
  /// tensor (an input gradient's: the forward filters with their two
  /// channel dimensions swapped), which the product reads where they are.
  bool filterTransposed = false;
  /// The patches of one image are the image itself, (C) x (H*W): a 1x1
  /// window at stride 1 on an NCHW input read where it is; nothing is
  /// copied.
  bool patchesAreInput = false;
};

/// Entries (images or input channels) per chunk: the most whose patches
/// take at most `patchBytes`, as a divisor of `count` so that every chunk
/// has the same static shape (at least one entry).
int64_t chooseChunk(int64_t count, int64_t bytesPerEntry, int64_t patchBytes) {
  for (int64_t chunk = count; chunk > 1; --chunk)
    if (count % chunk == 0 && chunk * bytesPerEntry <= patchBytes)
      return chunk;
  return 1;
}

/// Patch bytes under which a convolution's patches are never split for
/// their size relative to the convolution: too few to matter for the peak,
/// and chunks would only make the products narrower.
constexpr int64_t kSmallPatchBytes = 64 * 1024;

/// The most bytes of patches a convolution builds at once: `patchBytes`,
/// and no more than the larger of its input and output (or
/// kSmallPatchBytes), so that a chunk's patches, alive beside both, at most
/// double what the convolution itself holds; on a small network the whole
/// batch's patches (nine times a 3x3 convolution's input) would otherwise
/// be the largest tensor of the step, beyond the reach of any
/// recomputation.
int64_t patchLimit(const Convolution &conv, int64_t patchBytes) {
  int64_t elementBytes = conv.output.getElementTypeBitWidth() / 8;
  int64_t activation =
      std::max(conv.input.getNumElements(), conv.output.getNumElements()) *
      elementBytes;
  return std::min(patchBytes, std::max(activation, kSmallPatchBytes));
}

/// The smaller of a GEMM's two dimensions other than the filters': what
/// limits how close a BLAS gets to its peak on it (a narrow product
/// reloads the filters for every few columns).
int64_t narrowSide(int64_t columns, int64_t depth) {
  return std::min(columns, depth);
}

/// Copies the patches of `images` and multiplies them with `filterMatrix`
/// into `accumulator`.
Value multiplyChunk(OpBuilder &builder, Location loc, const PatchProduct &gemm,
                    Value images, Value filterMatrix, Value accumulator,
                    SmallVectorImpl<Operation *> &created) {
  Value patches = gemm.patchesAreInput
                      ? tensor::CollapseShapeOp::create(
                            builder, loc, images,
                            ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}})
                            .getResult()
                      : copyPatches(builder, loc, images, gemm.patchShape,
                                    gemm.read, created);
  SmallVector<Value, 2> inputs = {filterMatrix, patches};
  if (gemm.patchesLeft)
    std::swap(inputs[0], inputs[1]);
  SmallVector<NamedAttribute, 1> attributes;
  if (gemm.filterTransposed) {
    // (m, n, k): A read as A[k, m].
    MLIRContext *context = builder.getContext();
    AffineExpr m, n, k;
    bindDims(context, m, n, k);
    auto map = [&](ArrayRef<AffineExpr> results) -> Attribute {
      return AffineMapAttr::get(AffineMap::get(3, 0, results, context));
    };
    attributes.push_back(builder.getNamedAttr(
        "indexing_maps",
        builder.getArrayAttr({map({k, m}), map({k, n}), map({m, n})})));
  }
  auto product =
      linalg::MatmulOp::create(builder, loc, TypeRange{accumulator.getType()},
                               inputs, ValueRange{accumulator}, attributes);
  created.push_back(product);
  return product.getResult(0);
}

/// The slice of `tensor` that keeps every dimension whole but `dim`, where
/// it takes `size` entries from `offset`.
Value sliceAlong(OpBuilder &builder, Location loc, Value tensor, unsigned dim,
                 OpFoldResult offset, int64_t size) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> unit(type.getRank(), builder.getIndexAttr(1));
  SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(builder.getContext(), type.getShape());
  offsets[dim] = offset;
  sizes[dim] = builder.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(builder, loc, tensor, offsets, sizes,
                                        unit);
}

/// The slice of the convolution's input that keeps every dimension whole
/// but `dim` (0: images, 1: channels), from `offset`, `size` entries: of
/// `input` itself, or of the transpose's source it is read through.
Value sliceInput(OpBuilder &builder, Location loc, const PatchProduct &gemm,
                 Value input, unsigned dim, OpFoldResult offset, int64_t size) {
  if (gemm.inputTransposed && dim < 2)
    dim = 1 - dim;
  return sliceAlong(builder, loc, input, dim, offset, size);
}

/// An scf.for from 0 to `upper` by `step` carrying `accumulator`, whose
/// body `body` builds from the chunk's first index; the loop and its body's
/// ops are appended to `created`.
Value chunkLoop(OpBuilder &builder, Location loc, int64_t upper, int64_t step,
                Value accumulator, SmallVectorImpl<Operation *> &created,
                function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value lowerValue = index(0), upperValue = index(upper),
        stepValue = index(step);
  created.append({lowerValue.getDefiningOp(), upperValue.getDefiningOp(),
                  stepValue.getDefiningOp()});
  auto loop = scf::ForOp::create(
      builder, loc, lowerValue, upperValue, stepValue, ValueRange{accumulator},
      [&](OpBuilder &nested, Location loc, Value first, ValueRange iterArgs) {
        scf::YieldOp::create(nested, loc,
                             body(nested, loc, first, iterArgs[0]));
      });
  created.push_back(loop);
  for (Operation &op : loop.getBody()->getOperations())
    created.push_back(&op);
  return loop.getResult(0);
}

/// The product of `gemm` (NCHW) as an scf.for over chunks of input
/// channels: each copies its channels' patches and adds their product with
/// the filter columns of those channels into the whole accumulator, in
/// place.
Value multiplyChannelChunks(OpBuilder &builder, Location loc,
                            const PatchProduct &gemm, Value input,
                            Value filterMatrix, Value accumulator,
                            SmallVectorImpl<Operation *> &created) {
  int64_t channels = cast<RankedTensorType>(input.getType())
                         .getDimSize(gemm.inputTransposed ? 0 : 1);
  int64_t columnsPerChannel = gemm.patchShape[1] * gemm.patchShape[2];
  return chunkLoop(
      builder, loc, channels, gemm.chunk, accumulator, created,
      [&](OpBuilder &body, Location loc, Value channel, Value sum) {
        Value channels =
            sliceInput(body, loc, gemm, input, /*dim=*/1, channel, gemm.chunk);
        Value columns;
        if (gemm.filterSource) {
          // One channel's filters, (1, F, KH, KW) in the source: its
          // columns as they are stored.
          columns = tensor::CollapseShapeOp::create(
              body, loc,
              sliceAlong(body, loc, gemm.filterSource, /*dim=*/0, channel, 1),
              ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
        } else {
          // The filter columns of the chunk's channels: a block of whole
          // rows' segments, which BLAS reads with the matrix's leading
          // dimension.
          Value firstColumn = arith::MulIOp::create(
              body, loc, channel,
              arith::ConstantIndexOp::create(body, loc, columnsPerChannel));
          columns = sliceAlong(body, loc, filterMatrix, /*dim=*/1, firstColumn,
                               gemm.chunk * columnsPerChannel);
        }
        // The loop's body takes the annotations below, op by op.
        SmallVector<Operation *> ignored;
        return multiplyChunk(body, loc, gemm, channels, columns, sum, ignored);
      });
}

/// The product of `gemm` for the whole batch of `input`: one chunk, an
/// scf.for over chunks of images, each multiplied into its slice of the
/// accumulator in place, or one over chunks of channels.
Value multiplyPatches(OpBuilder &builder, Location loc,
                      const PatchProduct &gemm, Value input, Value filterMatrix,
                      Value accumulator,
                      SmallVectorImpl<Operation *> &created) {
  if (gemm.chunkChannels)
    return multiplyChannelChunks(builder, loc, gemm, input, filterMatrix,
                                 accumulator, created);
  if (gemm.chunk == gemm.batch)
    return multiplyChunk(builder, loc, gemm, input, filterMatrix, accumulator,
                         created);
  if (gemm.imagesInPlace)
    return chunkLoop(
        builder, loc, gemm.batch, 1, accumulator, created,
        [&](OpBuilder &body, Location loc, Value image, Value output) {
          Value one = sliceInput(body, loc, gemm, input, /*dim=*/0, image, 1);
          // The image's block of the output, (1, F, OH, OW), as a matrix.
          auto block = sliceAlong(body, loc, output, /*dim=*/0, image, 1)
                           .getDefiningOp<tensor::ExtractSliceOp>();
          auto blockType = cast<RankedTensorType>(block.getType());
          SmallVector<ReassociationIndices> rows = {{0, 1}, {2, 3}};
          Value matrix =
              tensor::CollapseShapeOp::create(body, loc, block, rows);
          SmallVector<Operation *> ignored;
          Value product = multiplyChunk(body, loc, gemm, one, filterMatrix,
                                        matrix, ignored);
          Value image4d = tensor::ExpandShapeOp::create(body, loc, blockType,
                                                        product, rows);
          return tensor::InsertSliceOp::create(
                     body, loc, image4d, output, block.getMixedOffsets(),
                     block.getMixedSizes(), block.getMixedStrides())
              .getResult();
        });
  return chunkLoop(
      builder, loc, gemm.batch, gemm.chunk, accumulator, created,
      [&](OpBuilder &body, Location loc, Value image, Value product) {
        Value images =
            sliceInput(body, loc, gemm, input, /*dim=*/0, image, gemm.chunk);
        Value first = image;
        if (gemm.imageExtent != 1)
          first = arith::MulIOp::create(
              body, loc, image,
              arith::ConstantIndexOp::create(body, loc, gemm.imageExtent));
        auto slice = sliceAlong(body, loc, product, gemm.imageDim, first,
                                gemm.chunk * gemm.imageExtent)
                         .getDefiningOp<tensor::ExtractSliceOp>();
        // The loop's body takes the annotations below, op by op.
        SmallVector<Operation *> ignored;
        Value chunkProduct = multiplyChunk(
            body, loc, gemm, images, filterMatrix, slice.getResult(), ignored);
        return tensor::InsertSliceOp::create(
                   body, loc, chunkProduct, product, slice.getMixedOffsets(),
                   slice.getMixedSizes(), slice.getMixedStrides())
            .getResult();
      });
}

/// Columns (positions of one image, or a filter's taps) from which a
/// product of one image's block is wide or deep enough for a BLAS.
constexpr int64_t kMinBlockColumns = 256;

/// The source of `value` when `value` is a copy on tensors swapping the
/// first two of four dimensions: a linalg.transpose, or the linalg.generic
/// it becomes once generalized (one input read through the permutation,
/// the identity on the output, a body yielding the input).
Value getSwappedSource(Value value) {
  if (auto transpose = value.getDefiningOp<linalg::TransposeOp>()) {
    if (!transpose.hasPureTensorSemantics() ||
        transpose.getPermutation() != ArrayRef<int64_t>{1, 0, 2, 3})
      return Value();
    return transpose.getInput();
  }
  auto copy = value.getDefiningOp<linalg::GenericOp>();
  if (!copy || !copy.hasPureTensorSemantics())
    return Value();
  std::optional<SmallVector<int64_t>> permutation =
      linalg::isaTransposeOpInterface(copy);
  if (!permutation || *permutation != ArrayRef<int64_t>{1, 0, 2, 3})
    return Value();
  return copy.getDpsInputs()[0];
}

/// Whether `value` is stored as one contiguous row-major block once
/// bufferized: a slice is when its strides are 1 and, past its first
/// dimension of more than one entry, it keeps every dimension whole (and its
/// source is); reshapes keep it; any other value is a buffer of its own. A
/// slice of single kernel taps (stride KH*KW between channels) is not, and
/// a product reading it would not be a BLAS call.
bool isStoredContiguously(Value value) {
  while (true) {
    if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>()) {
      value = collapse.getSrc();
      continue;
    }
    if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
      value = expand.getSrc();
      continue;
    }
    auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice)
      return true;
    if (!slice.hasUnitStride())
      return false;
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    ArrayRef<int64_t> whole = slice.getSourceType().getShape();
    bool partial = false;
    for (auto [size, extent] : llvm::zip_equal(sizes, whole)) {
      if (ShapedType::isDynamic(size) || ShapedType::isDynamic(extent))
        return false;
      if (partial && size != extent)
        return false;
      if (size != 1)
        partial = true;
    }
    value = slice.getSource();
  }
}

/// Whether a convolution whose filters are a swap of another tensor reads
/// them one channel (image) at a time from that tensor: each channel's
/// filter columns, (F) x (KH*KW), are a block of the source deep enough for
/// a BLAS, or the output has a single position.
bool takesFilterBlocksFromSource(int64_t kh, int64_t kw, int64_t oh,
                                 int64_t ow) {
  return kh * kw >= kMinBlockColumns || oh * ow == 1;
}

/// The only user of `op`'s result when it is a copy on tensors swapping the
/// first two of four dimensions.
Operation *getOnlySwappingUser(Operation *op) {
  if (!op->hasOneUse())
    return nullptr;
  Operation *user = *op->user_begin();
  if (user->getNumResults() != 1 ||
      getSwappedSource(user->getResult(0)) != op->getResult(0))
    return nullptr;
  return user;
}

/// NCHW input, FCHW filter: patches as (C*KH*KW) x (N*OH*OW) (in chunks of
/// images), the product filters x patches as (F) x (N*OH*OW), transposed
/// back to NCHW.
struct NchwConvolutionAsGemm
    : public OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  NchwConvolutionAsGemm(MLIRContext *context, int64_t patchBytes)
      : OpRewritePattern(context), patchBytes(patchBytes) {}

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
    int64_t elementBytes = matched->output.getElementTypeBitWidth() / 8;
    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<Operation *> created;

    // An input or filters that are (1, 0, 2, 3) transposes of other
    // tensors (a weight gradient's: the activations and the output
    // gradient with images and channels swapped) are read where they are.
    Value input = conv.getInputs()[0];
    PatchProduct gemm;
    if (Value source = getSwappedSource(input)) {
      input = source;
      gemm.inputTransposed = true;
    }
    // A swapped source stored in pieces (single taps of a larger kernel) is
    // left to the swap, which copies it whole once.
    Value filterSource = getSwappedSource(conv.getInputs()[1]);
    if (filterSource && !isStoredContiguously(filterSource))
      filterSource = Value();

    // col[c, kh, kw, n, oh, ow] = input[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1],
    // n relative to the chunk.
    AffineExpr dc, dkh, dkw, dn, doh, dow;
    bindDims(context, dc, dkh, dkw, dn, doh, dow);
    AffineExpr row = doh * strides[0] + dkh * dilations[0],
               column = dow * strides[1] + dkw * dilations[1];
    gemm.read = AffineMap::get(6, 0,
                               gemm.inputTransposed
                                   ? ArrayRef<AffineExpr>{dc, dn, row, column}
                                   : ArrayRef<AffineExpr>{dn, dc, row, column},
                               context);
    gemm.batch = n;
    int64_t limit = patchLimit(*matched, patchBytes);
    gemm.chunk = chooseChunk(n, c * kh * kw * oh * ow * elementBytes, limit);
    gemm.patchShape = {c, kh, kw, gemm.chunk, oh, ow};
    // A 1x1 window at stride 1 over the input as it is stored: each
    // image's patches are the image.
    bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 &&
                     !gemm.inputTransposed;
    if (filterSource && takesFilterBlocksFromSource(kh, kw, oh, ow)) {
      // The filters are a transposed activation-sized tensor (a weight
      // gradient's output gradient): one channel (image) at a time, whose
      // filter columns are a block of the source, (F) x (KH*KW), deep
      // enough for a BLAS; nothing of the batch's size is copied.
      gemm.chunkChannels = true;
      gemm.chunk = 1;
      gemm.filterSource = filterSource;
      gemm.patchShape = {1, kh, kw, n, oh, ow};
    } else if (n > 1 && (oh * ow >= kMinBlockColumns || pointwise)) {
      // One image at a time into its block of the output as laid out:
      // products (F) x (OH*OW) wide enough for a BLAS, and neither the
      // initial value nor the output transposed (two copies of an
      // activation-sized tensor fewer).
      gemm.imagesInPlace = true;
      gemm.chunk = 1;
      gemm.patchShape = {c, kh, kw, 1, oh, ow};
    } else if (gemm.chunk < n) {
      // Chunks of images make products gemm.chunk * OH * OW columns wide:
      // narrow where the output window is small and the kernel large (a
      // weight gradient's: 3x3 positions, the output gradient's 16x16 as
      // the kernel). Chunks of channels keep every column and split the
      // depth instead; they are taken where that leaves the wider GEMM.
      int64_t channelChunk =
          chooseChunk(c, kh * kw * n * oh * ow * elementBytes, limit);
      if (narrowSide(n * oh * ow, channelChunk * kh * kw) >
          narrowSide(gemm.chunk * oh * ow, c * kh * kw)) {
        gemm.chunkChannels = true;
        gemm.chunk = channelChunk;
        gemm.patchShape = {channelChunk, kh, kw, n, oh, ow};
      }
    }
    gemm.patchesAreInput =
        pointwise && !gemm.chunkChannels && (gemm.imagesInPlace || n == 1);
    gemm.patchesLeft = false;
    gemm.imageDim = 1;
    gemm.imageExtent = oh * ow;
    Value filterMatrix;
    if (filterSource && !gemm.filterSource && kh == 1 && kw == 1) {
      // The filters' source, (C, F, 1, 1), as the (C) x (F) matrix the
      // product reads transposed.
      gemm.filterTransposed = true;
      filterMatrix = tensor::CollapseShapeOp::create(
          rewriter, loc, filterSource,
          ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    } else if (!gemm.filterSource) {
      filterMatrix = tensor::CollapseShapeOp::create(
          rewriter, loc, conv.getInputs()[1],
          ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    }

    // The initial value as (F, N*OH*OW): a fill is made anew at that shape,
    // anything else is transposed (N, F, OH, OW) -> (F, N, OH, OW); images
    // in place accumulate into it as it is.
    Value init = conv.getOutputs()[0];
    auto productType = RankedTensorType::get({f, positions}, element);
    Value accumulator;
    if (gemm.imagesInPlace) {
      accumulator = init;
    } else if (Value fillValue = getFillValue(init)) {
      auto empty = tensor::EmptyOp::create(rewriter, loc,
                                           productType.getShape(), element);
      auto refill =
          linalg::FillOp::create(rewriter, loc, fillValue, empty.getResult());
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
    Value product = multiplyPatches(rewriter, loc, gemm, input, filterMatrix,
                                    accumulator, created);

    Value result;
    if (gemm.imagesInPlace) {
      result = product;
    } else if (n == 1) {
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, outputType, product,
          ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    } else {
      auto grid = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({f, n, oh, ow}, element),
          product, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
      if (Operation *swap = getOnlySwappingUser(conv)) {
        // The output's only reader swaps it back (a weight gradient's
        // (C, F, KH, KW) into the filters' (F, C, KH, KW)): the product is
        // already laid out that way; neither transpose is made.
        CkptDialect::copyAnnotations(swap, product.getDefiningOp());
        takeAnnotations(conv, created, grid.getResult());
        rewriter.replaceOp(swap, grid.getResult());
        rewriter.eraseOp(conv);
        return success();
      }
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

private:
  int64_t patchBytes;
};

/// NHWC input, HWCF filter: the patches as (N*OH*OW) x (KH*KW*C) times the
/// filter as (KH*KW*C) x (F) is the output, (N*OH*OW) x (F), as it is laid
/// out: no transposes.
struct NhwcConvolutionAsGemm
    : public OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  NhwcConvolutionAsGemm(MLIRContext *context, int64_t patchBytes)
      : OpRewritePattern(context), patchBytes(patchBytes) {}

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
    int64_t elementBytes = matched->output.getElementTypeBitWidth() / 8;
    Location loc = conv.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<Operation *> created;

    // col[n, oh, ow, kh, kw, c] = input[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c],
    // n relative to the chunk.
    AffineExpr dn, doh, dow, dkh, dkw, dc;
    bindDims(context, dn, doh, dow, dkh, dkw, dc);
    PatchProduct gemm;
    gemm.read = AffineMap::get(6, 0,
                               {dn, doh * strides[0] + dkh * dilations[0],
                                dow * strides[1] + dkw * dilations[1], dc},
                               context);
    gemm.batch = n;
    gemm.chunk = chooseChunk(n, c * kh * kw * oh * ow * elementBytes,
                             patchLimit(*matched, patchBytes));
    gemm.patchShape = {gemm.chunk, oh, ow, kh, kw, c};
    gemm.patchesLeft = true;
    gemm.imageDim = 0;
    gemm.imageExtent = oh * ow;
    auto filterMatrix = tensor::CollapseShapeOp::create(
        rewriter, loc, conv.getInputs()[1],
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    auto init = tensor::CollapseShapeOp::create(
        rewriter, loc, conv.getOutputs()[0],
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    Value product = multiplyPatches(rewriter, loc, gemm, conv.getInputs()[0],
                                    filterMatrix, init, created);
    auto result = tensor::ExpandShapeOp::create(
        rewriter, loc, matched->output, product,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    takeAnnotations(conv, created, result.getResult());
    rewriter.replaceOp(conv, result.getResult());
    return success();
  }

private:
  int64_t patchBytes;
};

struct ConvolutionToGemmPass
    : public mlir::ckpt::impl::ConvolutionToGemmPassBase<
          ConvolutionToGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (patchBytes < 1) {
      getOperation()->emitError()
          << "ckpt-convolution-to-gemm: patch-bytes must be positive, got "
          << static_cast<int64_t>(patchBytes);
      return signalPassFailure();
    }
    patterns.add<NchwConvolutionAsGemm, NhwcConvolutionAsGemm>(&getContext(),
                                                               patchBytes);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

bool mlir::ckpt::readsSwappedFiltersWhereStored(
    linalg::Conv2DNchwFchwOp conv) {
  PatternRewriter rewriter(conv->getContext());
  FailureOr<Convolution> matched = matchConvolution(conv, rewriter);
  Value source = getSwappedSource(conv.getInputs()[1]);
  if (failed(matched) || !source || !isStoredContiguously(source))
    return false;
  int64_t kh = matched->filter.getDimSize(2), kw = matched->filter.getDimSize(3),
          oh = matched->output.getDimSize(2), ow = matched->output.getDimSize(3);
  // The two ways NchwConvolutionAsGemm reads a swapped source in place.
  return takesFilterBlocksFromSource(kh, kw, oh, ow) || (kh == 1 && kw == 1);
}
