//===- WidenAccumulators.cpp - low-precision reductions accumulate in f32 -===//
//
// Implements `ckpt-widen-accumulators`: a linalg.generic that reduces into a
// bf16 or f16 tensor accumulates into an f32 tensor instead, and one that
// sums many elements into an f32 tensor accumulates into an f64 tensor,
// rounded to the narrow type once, after the reduction (see the pass
// description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/FillValue.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

#define DEBUG_TYPE "ckpt-widen-accumulators"

namespace mlir::ckpt {
#define GEN_PASS_DEF_WIDENACCUMULATORSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Which accumulator type a reduction widens, and to what: bf16 and f16
/// to f32, or f32 to f64.
struct Widening {
  /// Whether \p type is one of the accumulator types this widening takes.
  bool isNarrow(Type type) const {
    if (wide.isF32())
      return type.isBF16() || type.isF16();
    return type.isF32();
  }
  /// The wide type's width in bits.
  unsigned width() const { return FloatType(wide).getWidth(); }
  /// f32 or f64.
  FloatType wide;
};

/// The widening of an accumulator of type \p type in a reduction over
/// \p extent elements per result (INT64_MAX when dynamic); none when the
/// type keeps its accumulators.
std::optional<Widening> wideningFor(Type type, int64_t extent,
                                    int64_t f32MinExtent) {
  MLIRContext *context = type.getContext();
  if (type.isBF16() || type.isF16())
    return Widening{Float32Type::get(context)};
  if (type.isF32() && f32MinExtent > 0 && extent >= f32MinExtent)
    return Widening{Float64Type::get(context)};
  return std::nullopt;
}

/// The number of elements the reduction loops of \p op sum into each
/// result element: the product of their trip counts (INT64_MAX when one is
/// dynamic).
int64_t reductionExtent(linalg::GenericOp op) {
  int64_t extent = 1;
  for (auto [trips, iterator] :
       llvm::zip(op.getStaticLoopRanges(), op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(trips) ||
        extent >
            std::numeric_limits<int64_t>::max() / std::max<int64_t>(trips, 1))
      return std::numeric_limits<int64_t>::max();
    extent *= trips;
  }
  return extent;
}

/// Why a long f32 sum keeps its f32 accumulator, or none: it is summed
/// elsewhere. A matrix product (a contraction with M and N dimensions, not
/// a dot product per batch entry such as BatchNorm's weight gradient) goes
/// to the GEMM libraries (BLAS, cuBLAS), which sum in blocks; a sum of
/// products with an indicator (uitofp of a comparison: an embedding
/// gradient's one-hot product) becomes row additions in
/// ckpt-one-hot-products-to-scatter, as PyTorch's index_add, in f32.
std::optional<StringLiteral> summedElsewhere(linalg::GenericOp op) {
  auto linalgOp = cast<linalg::LinalgOp>(op.getOperation());
  if (linalg::isaContractionOpInterface(linalgOp)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    if (succeeded(dims) && !dims->m.empty() && !dims->n.empty())
      return StringLiteral("an f32 matrix product: a GEMM");
  }
  if (llvm::any_of(op.getRegion().front().without_terminator(),
                   [](Operation &inner) {
                     return isa<arith::UIToFPOp, arith::SIToFPOp>(inner) &&
                            inner.getOperand(0).getType().isInteger(1);
                   }))
    return StringLiteral("an f32 sum of indicator products: a scatter");
  return std::nullopt;
}

/// Payload ops that compute the same thing in the wide type as in the
/// narrow one, less the rounding of their result: they may carry an
/// accumulator.
bool isWidenableArithmetic(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::NegFOp, arith::SelectOp>(op);
}

/// The payload values that compute in the wide type once the accumulators
/// do: those that depend on the accumulators \p accumulators (the block
/// arguments of the outputs to widen), plus the products feeding them (so
/// that a contraction multiplies its narrow inputs exactly, as upstream's
/// mixed-precision named ops do); failure when one of them is computed by
/// an op that has no wide form here.
FailureOr<llvm::DenseSet<Value>>
analyzePayload(Block &body, ArrayRef<BlockArgument> accumulators,
               const Widening &widening) {
  llvm::DenseSet<Value> wide(accumulators.begin(), accumulators.end());
  llvm::DenseSet<Operation *> wideOps;
  for (Operation &op : body.without_terminator()) {
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return wide.contains(v); }))
      continue;
    if (isa<arith::CmpFOp>(op)) {
      wideOps.insert(&op); // compares widened operands; its i1 stays as is
      continue;
    }
    if (auto extend = dyn_cast<arith::ExtFOp>(op)) {
      // To a narrow type: computed in the wide one; to the wide type or
      // wider: the value itself, then extended.
      bool narrow = widening.isNarrow(extend.getType());
      if (!narrow &&
          extend.getType().getIntOrFloatBitWidth() < widening.width())
        return failure();
      wideOps.insert(&op);
      if (narrow)
        wide.insert(extend.getResult());
      continue;
    }
    if (auto truncate = dyn_cast<arith::TruncFOp>(op)) {
      if (!widening.isNarrow(truncate.getType()))
        return failure();
      wideOps.insert(&op);
      wide.insert(truncate.getResult());
      continue;
    }
    if (!isWidenableArithmetic(&op) || op.getNumResults() != 1 ||
        !widening.isNarrow(op.getResult(0).getType()))
      return failure();
    wideOps.insert(&op);
    wide.insert(op.getResult(0));
  }
  // Narrow products read only by widened ops are computed in f32 too.
  for (Operation &op : body.without_terminator()) {
    auto product = dyn_cast<arith::MulFOp>(op);
    if (!product || wide.contains(product.getResult()) ||
        !widening.isNarrow(product.getType()) || product->use_empty())
      continue;
    if (llvm::all_of(product->getUsers(),
                     [&](Operation *user) { return wideOps.contains(user); }))
      wide.insert(product.getResult());
  }
  return wide;
}

/// \p value (of the rewritten payload) as type \p type: extended or
/// truncated when it is a float of another width.
Value castFloat(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (cast<FloatType>(value.getType()).getWidth() <
      cast<FloatType>(type).getWidth())
    return builder.createOrFold<arith::ExtFOp>(loc, type, value);
  return builder.createOrFold<arith::TruncFOp>(loc, type, value);
}

/// Builds the payload of the widened op: the original payload with every
/// value of \p wide computed in the wide type.
void buildWidePayload(OpBuilder &builder, Location loc, Block &original,
                      ValueRange arguments, const llvm::DenseSet<Value> &wide,
                      const Widening &widening) {
  IRMapping mapping;
  mapping.map(original.getArguments(), arguments);
  auto wideOperand = [&](Value value) {
    Value mapped = mapping.lookupOrDefault(value);
    return widening.isNarrow(mapped.getType())
               ? castFloat(builder, loc, mapped, widening.wide)
               : mapped;
  };
  for (Operation &op : original.without_terminator()) {
    bool widenResult =
        op.getNumResults() == 1 && wide.contains(op.getResult(0));
    bool readsWide = llvm::any_of(op.getOperands(),
                                  [&](Value v) { return wide.contains(v); });
    if (!widenResult && !readsWide) {
      builder.clone(op, mapping);
      continue;
    }
    if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      // The operand is already wide: an extension to the wide type and a
      // rounding back to the narrow type are both the value itself.
      Value operand = mapping.lookupOrDefault(op.getOperand(0));
      mapping.map(op.getResult(0), widenResult
                                       ? operand
                                       : castFloat(builder, loc, operand,
                                                   op.getResult(0).getType()));
      continue;
    }
    // Operands first: their extensions must come before the op.
    SmallVector<Value> operands;
    for (Value operand : op.getOperands())
      operands.push_back(isa<FloatType>(operand.getType())
                             ? wideOperand(operand)
                             : mapping.lookupOrDefault(operand));
    Operation *wide = builder.clone(op, mapping);
    wide->setOperands(operands);
    if (widenResult)
      wide->getResult(0).setType(widening.wide);
    mapping.map(op.getResults(), wide->getResults());
  }
  auto yield = cast<linalg::YieldOp>(original.getTerminator());
  SmallVector<Value> yielded;
  for (auto [value, argument] : llvm::zip(
           yield.getValues(), arguments.take_back(yield.getNumOperands())))
    yielded.push_back(castFloat(builder, loc, mapping.lookupOrDefault(value),
                                argument.getType()));
  linalg::YieldOp::create(builder, loc, yielded);
}

/// \p source (a float tensor) cast elementwise to \p elementType, into a
/// new tensor.
Value castElementwise(RewriterBase &rewriter, Location loc, Value source,
                      Type elementType) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, source);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, elementType);
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             rewriter, loc, TypeRange{type.clone(elementType)},
             ValueRange{source}, ValueRange{empty}, maps, iterators,
             [&](OpBuilder &b, Location nested, ValueRange args) {
               linalg::YieldOp::create(
                   b, nested, castFloat(b, nested, args[0], elementType));
             })
      .getResult(0);
}

/// \p init (a narrow tensor) as a tensor of type \p wide: a fill of the
/// widened value when \p init is a fill, else an elementwise extension.
Value widenInit(RewriterBase &rewriter, Location loc, Value init,
                FloatType wide) {
  std::optional<Value> fillValue;
  if (auto producer = init.getDefiningOp<linalg::LinalgOp>()) {
    if (auto fill = dyn_cast<linalg::FillOp>(producer.getOperation()))
      fillValue = fill.value();
    else if (auto generic =
                 dyn_cast<linalg::GenericOp>(producer.getOperation()))
      fillValue = linalg::isaFillOpInterface(generic);
  }
  if (!fillValue || !isa<FloatType>(fillValue->getType()))
    return castElementwise(rewriter, loc, init, wide);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, init);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, wide);
  Value scalar = castFloat(rewriter, loc, *fillValue, wide);
  return linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0);
}

/// Rewrites a reduction into narrow floats to accumulate in f32, and a long
/// one into f32 to accumulate in f64.
struct WidenNarrowReduction : public OpRewritePattern<linalg::GenericOp> {
  WidenNarrowReduction(MLIRContext *context, int64_t f32MinExtent)
      : OpRewritePattern(context), f32MinExtent(f32MinExtent) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    if (op.getNumReductionLoops() == 0)
      return rewriter.notifyMatchFailure(op, "no reduction");
    Block &body = op.getRegion().front();
    // One widening per op: the narrow types' if an accumulator has one,
    // else f32's when the reduction is long enough.
    std::optional<Widening> widening;
    int64_t extent = reductionExtent(op);
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Type type = op.getMatchingBlockArgument(&init).getType();
      std::optional<Widening> candidate =
          wideningFor(type, extent, f32MinExtent);
      if (candidate && (!widening || candidate->width() < widening->width()))
        widening = candidate;
    }
    if (!widening)
      return rewriter.notifyMatchFailure(op, "no accumulator to widen");
    if (widening->wide.isF64())
      if (std::optional<StringLiteral> reason = summedElsewhere(op))
        return rewriter.notifyMatchFailure(op, *reason);
    SmallVector<BlockArgument> accumulators;
    SmallVector<bool> widen;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      BlockArgument argument = op.getMatchingBlockArgument(&init);
      bool accumulates = widening->isNarrow(argument.getType()) &&
                         isa<RankedTensorType>(init.get().getType()) &&
                         !argument.use_empty();
      widen.push_back(accumulates);
      if (accumulates)
        accumulators.push_back(argument);
    }
    if (accumulators.empty())
      return rewriter.notifyMatchFailure(op, "no narrow float accumulator");
    FailureOr<llvm::DenseSet<Value>> wideValues =
        analyzePayload(body, accumulators, *widening);
    if (failed(wideValues))
      return rewriter.notifyMatchFailure(
          op, "the accumulation goes through an op with no wide form here");
    // A maximum or minimum rounds nothing: only sums gain from f64.
    if (widening->wide.isF64() && llvm::none_of(*wideValues, [](Value value) {
          return isa_and_nonnull<arith::AddFOp, arith::SubFOp>(
              value.getDefiningOp());
        }))
      return rewriter.notifyMatchFailure(op, "an f32 reduction that sums "
                                             "nothing");

    Location loc = op.getLoc();
    SmallVector<Value> inits;
    SmallVector<Type> resultTypes;
    for (auto [init, wide] : llvm::zip(op.getDpsInits(), widen)) {
      inits.push_back(wide ? widenInit(rewriter, loc, init, widening->wide)
                           : init);
      resultTypes.push_back(inits.back().getType());
    }
    auto wideOp = linalg::GenericOp::create(
        rewriter, loc, resultTypes, op.getDpsInputs(), inits,
        op.getIndexingMapsArray(), op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location nested, ValueRange args) {
          buildWidePayload(b, nested, body, args, *wideValues, *widening);
        });
    CkptDialect::copyAnnotations(op, wideOp);

    SmallVector<Value> replacements;
    for (auto [result, wide] : llvm::zip(wideOp.getResults(), widen)) {
      if (!wide) {
        replacements.push_back(result);
        continue;
      }
      Value rounded = castElementwise(
          rewriter, loc, result,
          getElementTypeOrSelf(op.getResult(replacements.size()).getType()));
      CkptDialect::copyAnnotations(op, rounded.getDefiningOp());
      replacements.push_back(rounded);
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }

private:
  int64_t f32MinExtent;
};

struct WidenAccumulatorsPass
    : public mlir::ckpt::impl::WidenAccumulatorsPassBase<
          WidenAccumulatorsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (f32MinExtent < 0) {
      getOperation()->emitError()
          << "ckpt-widen-accumulators: f32-min-extent must be 0 (off) or "
             "positive, got "
          << static_cast<int64_t>(f32MinExtent);
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    PatternRewriter rewriter(&getContext());
    WidenNarrowReduction pattern(&getContext(), f32MinExtent);
    for (linalg::GenericOp op : candidates) {
      SmallVector<Operation *> initProducers;
      for (Value init : op.getDpsInits())
        initProducers.push_back(init.getDefiningOp());
      rewriter.setInsertionPoint(op);
      if (failed(pattern.matchAndRewrite(op, rewriter)))
        continue;
      for (Operation *producer : initProducers)
        eraseIfUnused(rewriter, producer);
    }
  }
};

} // namespace
