//===- WidenAccumulators.cpp - low-precision reductions accumulate in f32 -===//
//
// Implements `ckpt-widen-accumulators`: a linalg.generic that reduces into a
// bf16 or f16 tensor accumulates into an f32 tensor instead, rounded to the
// narrow type once, after the reduction (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "ckpt-widen-accumulators"

namespace mlir::ckpt {
#define GEN_PASS_DEF_WIDENACCUMULATORSPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

bool isNarrowFloat(Type type) { return type.isBF16() || type.isF16(); }

/// Payload ops that compute the same thing in f32 as in a narrow type, less
/// the rounding of their result: they may carry an accumulator.
bool isWidenableArithmetic(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::NegFOp, arith::SelectOp>(op);
}

/// The payload values that compute in f32 once the accumulators do: those
/// that depend on the accumulators \p accumulators (the
/// block arguments of the outputs to widen), plus the products feeding them
/// (so that a contraction multiplies its narrow inputs exactly, in f32, as
/// upstream's mixed-precision named ops do); failure when one of them is
/// computed by an op that has no f32 form here.
FailureOr<llvm::DenseSet<Value>>
analyzePayload(Block &body, ArrayRef<BlockArgument> accumulators) {
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
      if (!extend.getType().isF32() && !extend.getType().isF64())
        return failure();
      wideOps.insert(&op);
      if (extend.getType().isF32())
        wide.insert(extend.getResult());
      continue;
    }
    if (auto truncate = dyn_cast<arith::TruncFOp>(op)) {
      if (!isNarrowFloat(truncate.getType()))
        return failure();
      wideOps.insert(&op);
      wide.insert(truncate.getResult());
      continue;
    }
    if (!isWidenableArithmetic(&op) || op.getNumResults() != 1 ||
        !isNarrowFloat(op.getResult(0).getType()))
      return failure();
    wideOps.insert(&op);
    wide.insert(op.getResult(0));
  }
  // Narrow products read only by widened ops are computed in f32 too.
  for (Operation &op : body.without_terminator()) {
    auto product = dyn_cast<arith::MulFOp>(op);
    if (!product || wide.contains(product.getResult()) ||
        !isNarrowFloat(product.getType()) || product->use_empty())
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
/// value of \p wide computed in f32.
void buildWidePayload(OpBuilder &builder, Location loc, Block &original,
                      ValueRange arguments, const llvm::DenseSet<Value> &wide) {
  Type f32 = builder.getF32Type();
  IRMapping mapping;
  mapping.map(original.getArguments(), arguments);
  auto wideOperand = [&](Value value) {
    Value mapped = mapping.lookupOrDefault(value);
    return isNarrowFloat(mapped.getType())
               ? castFloat(builder, loc, mapped, f32)
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
      // The operand is already f32: an extension to f32 and a rounding
      // back to the narrow type are both the value itself.
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
      wide->getResult(0).setType(f32);
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

/// \p init (a narrow tensor) as an f32 tensor: a fill of the widened value
/// when \p init is a fill, else an elementwise extension.
Value widenInit(RewriterBase &rewriter, Location loc, Value init) {
  Type f32 = rewriter.getF32Type();
  std::optional<Value> fillValue;
  if (auto producer = init.getDefiningOp<linalg::LinalgOp>()) {
    if (auto fill = dyn_cast<linalg::FillOp>(producer.getOperation()))
      fillValue = fill.value();
    else if (auto generic =
                 dyn_cast<linalg::GenericOp>(producer.getOperation()))
      fillValue = linalg::isaFillOpInterface(generic);
  }
  if (!fillValue || !isa<FloatType>(fillValue->getType()))
    return castElementwise(rewriter, loc, init, f32);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, init);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, f32);
  Value scalar = castFloat(rewriter, loc, *fillValue, f32);
  return linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0);
}

/// Rewrites a reduction into narrow floats to accumulate in f32.
struct WidenNarrowReduction : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    if (op.getNumReductionLoops() == 0)
      return rewriter.notifyMatchFailure(op, "no reduction");
    Block &body = op.getRegion().front();
    SmallVector<BlockArgument> accumulators;
    SmallVector<bool> widen;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      BlockArgument argument = op.getMatchingBlockArgument(&init);
      bool accumulates = isNarrowFloat(argument.getType()) &&
                         isa<RankedTensorType>(init.get().getType()) &&
                         !argument.use_empty();
      widen.push_back(accumulates);
      if (accumulates)
        accumulators.push_back(argument);
    }
    if (accumulators.empty())
      return rewriter.notifyMatchFailure(op, "no narrow float accumulator");
    FailureOr<llvm::DenseSet<Value>> wideValues =
        analyzePayload(body, accumulators);
    if (failed(wideValues))
      return rewriter.notifyMatchFailure(
          op, "the accumulation goes through an op with no f32 form here");

    Location loc = op.getLoc();
    SmallVector<Value> inits;
    SmallVector<Type> resultTypes;
    for (auto [init, wide] : llvm::zip(op.getDpsInits(), widen)) {
      inits.push_back(wide ? widenInit(rewriter, loc, init) : init);
      resultTypes.push_back(inits.back().getType());
    }
    auto wideOp = linalg::GenericOp::create(
        rewriter, loc, resultTypes, op.getDpsInputs(), inits,
        op.getIndexingMapsArray(), op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location nested, ValueRange args) {
          buildWidePayload(b, nested, body, args, *wideValues);
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
};

/// Erases \p op when nothing reads it any more, then its operands' producers
/// in turn (the narrow fill of a widened accumulator and its empty).
void eraseIfUnused(RewriterBase &rewriter, Operation *op) {
  if (!op || !op->use_empty() || !isMemoryEffectFree(op) ||
      !isa<linalg::LinalgOp, tensor::EmptyOp, arith::ConstantOp>(op))
    return;
  SmallVector<Operation *> producers;
  for (Value operand : op->getOperands())
    producers.push_back(operand.getDefiningOp());
  rewriter.eraseOp(op);
  for (Operation *producer : producers)
    eraseIfUnused(rewriter, producer);
}

struct WidenAccumulatorsPass
    : public mlir::ckpt::impl::WidenAccumulatorsPassBase<
          WidenAccumulatorsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk(
        [&](linalg::GenericOp op) { candidates.push_back(op); });
    PatternRewriter rewriter(&getContext());
    WidenNarrowReduction pattern(&getContext());
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
