//===- GeneralizeAndFuse.cpp - generalization and fusion keeping ckpt.* ---===//
//
// Implements `ckpt-generalize-and-fuse`: the upstream generalization and
// elementwise fusion patterns, driven with a listener that moves the ckpt
// annotations from each replaced op onto its replacement.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/ConvolutionToGemm.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "ckpt-generalize-and-fuse"

namespace mlir::ckpt {
#define GEN_PASS_DEF_GENERALIZEANDFUSEPASS
#include "ckpt/Transforms/Passes.h.inc"
} // namespace mlir::ckpt

using namespace mlir;
using namespace mlir::ckpt;

namespace {

/// Whether `op` is an elementwise linalg.generic that is cheap to repeat in
/// each of its readers: one op per element on a tensor of its own shape,
/// read element for element, that either widens its float type (an f32
/// activation extended to f64 for BatchNorm's statistics) or adds,
/// subtracts or multiplies a broadcast value (an activation centered on
/// its per-channel mean). Kept apart, it is a tensor of the activation's
/// size (or wider) alive beside the activation between its readers; fused,
/// each reader reads the activation instead.
bool isCheapToRepeat(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return false;
  Block *body = generic.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 2 || yield.getNumOperands() != 1)
    return false;
  Operation *payload = yield.getOperand(0).getDefiningOp();
  if (!payload || payload->getBlock() != body)
    return false;
  // The role of each operand of the payload op: a block argument of an
  // input read element for element, or of one read through a broadcast.
  unsigned whole = 0, broadcast = 0;
  for (Value operand : payload->getOperands()) {
    auto argument = dyn_cast<BlockArgument>(operand);
    if (!argument || argument.getOwner() != body)
      return false;
    AffineMap map = generic.getMatchingIndexingMap(
        generic.getDpsInputOperand(argument.getArgNumber()));
    if (map.isIdentity())
      ++whole;
    else if (map.isProjectedPermutation(/*allowZeroInResults=*/true) &&
             !map.isPermutation())
      ++broadcast;
    else
      return false;
  }
  // Only a widening: repeated, a rounding would be as exact, but a GEMM
  // reader that took the wide operand for its own would skip it.
  if (isa<arith::ExtFOp>(payload))
    return whole == 1 && broadcast == 0;
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(payload) &&
         whole == 1 && broadcast == 1;
}

/// Copies the `ckpt.*` discardable attributes of every replaced op onto the
/// op defining its replacement values, without overwriting annotations the
/// replacement already has, and removes them from the ops nested in the
/// replacement (its payload). Replacements by block arguments or by several
/// ops (a result replaced by values of different ops) keep nothing: there is
/// no single op left that the annotation could describe.
struct AnnotationCarrier : public RewriterBase::Listener {
  void notifyOperationReplaced(Operation *op, ValueRange newValues) override {
    if (newValues.empty())
      return;
    Operation *replacement = newValues.front().getDefiningOp();
    if (!replacement || replacement == op ||
        llvm::any_of(newValues, [&](Value value) {
          return value.getDefiningOp() != replacement;
        }))
      return;
    CkptDialect::copyAnnotations(op, replacement);
    // The elementwise conversion copies all attributes of the tensor op onto
    // the scalar op of the payload; the annotations describe the tensor.
    for (Region &region : replacement->getRegions())
      region.walk(
          [](Operation *payload) { CkptDialect::removeAnnotations(payload); });
  }
};

/// Whether `op` is a linalg op that a GEMM lowering may take for a
/// contraction.
bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

/// Whether `op` is a copy swapping the first two of four dimensions that a
/// kept 2-D convolution reads as its filters, from whose source
/// ckpt-convolution-to-gemm multiplies where it is stored (a weight
/// gradient's output gradient, one image at a time): the copy then goes
/// unused. Fused into its producer instead, the producer would write the
/// swapped layout itself, an activation-sized tensor that cannot take the
/// place of the producer's dying input (a BatchNorm gradient's incoming
/// gradient). Swaps the product reads as they are, and the swapped
/// activations a weight gradient reads as its input, are left to fusion:
/// their cheap producers (a BatchNorm's normalization, an activation) fuse
/// into the swap, which is then computed from what is saved anyway
/// (EfficientNet-B0: 11 MB more at the peak without it).
bool isSwapReadByConvolution(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  return llvm::any_of(op->getResult(0).getUses(), [](OpOperand &use) {
    auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(use.getOwner());
    return conv && use.get() == conv.getInputs()[1] &&
           readsSwappedFiltersWhereStored(conv);
  });
}

/// A linalg.generic that reads every element of a tensor of its own type at
/// its own position (`tensor.extract %src[i0, ..., 0, ...]`: an index of each
/// loop, or 0 along a dimension of extent 1) is that tensor: the reversal
/// of a 1x1 kernel's window, which importers write for every convolution's
/// input gradient, copies the filters for nothing.
struct FoldGatherOfOwnPositions : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 0 || op.getNumDpsInits() != 1 ||
        !op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getIndexingMapsArray()[0].isIdentity())
      return rewriter.notifyMatchFailure(op, "not an elementwise gather");
    Block *body = op.getBody();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto extract = yield.getOperand(0).getDefiningOp<tensor::ExtractOp>();
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    if (!extract || extract->getBlock() != body ||
        extract.getTensor().getType() != resultType ||
        extract.getTensor().getParentBlock() == body)
      return rewriter.notifyMatchFailure(op, "not a gather of its own type");
    for (auto [dim, index] : llvm::enumerate(extract.getIndices())) {
      if (auto loopIndex = index.getDefiningOp<linalg::IndexOp>()) {
        if (loopIndex.getDim() != dim)
          return rewriter.notifyMatchFailure(op, "another position");
        continue;
      }
      std::optional<int64_t> constant = getConstantIntValue(index);
      if (!constant || *constant != 0 || resultType.getDimSize(dim) != 1)
        return rewriter.notifyMatchFailure(op, "another position");
    }
    rewriter.replaceOp(op, extract.getTensor());
    return success();
  }
};

/// Fuses an elementwise producer into a `linalg.generic` consumer, like the
/// upstream fusion pattern, and gives the fused op the consumer's
/// annotations. The upstream pattern redirects uses and erases the consumer
/// instead of replacing it, so a listener never learns which op took its
/// place; this pattern runs first (higher benefit) under the same control.
struct FuseIntoAnnotatedConsumer : public OpRewritePattern<linalg::GenericOp> {
  FuseIntoAnnotatedConsumer(MLIRContext *context, linalg::ControlFusionFn fn)
      : OpRewritePattern(context, /*benefit=*/2), control(std::move(fn)) {}

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      if (!linalg::areElementwiseOpsFusable(&operand) || !control(&operand))
        continue;
      Operation *producer = operand.get().getDefiningOp();
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        return rewriter.notifyMatchFailure(consumer, "fusion failed");
      rewriter.modifyOpInPlace(fused->fusedOp, [&] {
        CkptDialect::copyAnnotations(consumer, fused->fusedOp);
      });
      // Only the consumer's results are redirected; the producer stays for
      // its other users (if any) and is erased once it has none.
      for (auto [original, replacement] : fused->replacements)
        if (original.getDefiningOp() != producer)
          rewriter.replaceAllUsesWith(original, replacement);
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }

private:
  linalg::ControlFusionFn control;
};

/// Generalizes named linalg ops (what the upstream generalization pattern
/// does), except, when asked, the 2-D convolutions that
/// ckpt-convolution-to-gemm rewrites.
struct GeneralizeNamedOp : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  GeneralizeNamedOp(MLIRContext *context, bool keepConvolutions)
      : OpInterfaceRewritePattern(context), keepConvolutions(keepConvolutions) {
  }

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (keepConvolutions &&
        isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(op))
      return rewriter.notifyMatchFailure(op, "convolution kept");
    return linalg::generalizeNamedOp(rewriter, op);
  }

private:
  bool keepConvolutions;
};

struct GeneralizeAndFusePass
    : public mlir::ckpt::impl::GeneralizeAndFusePassBase<
          GeneralizeAndFusePass> {
  using GeneralizeAndFusePassBase::GeneralizeAndFusePassBase;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = root->getContext();
    AnnotationCarrier carrier;

    // Elementwise arith/math ops on ranked tensors become linalg.generic
    // (what upstream `convert-elementwise-to-linalg` does).
    RewritePatternSet elementwise(context);
    linalg::populateElementwiseToLinalgConversionPatterns(elementwise);
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *op) {
      return !OpTrait::hasElementwiseMappableTraits(op) ||
             llvm::none_of(op->getOperandTypes(),
                           llvm::IsaPred<RankedTensorType>);
    });
    ConversionConfig elementwiseConfig;
    elementwiseConfig.listener = &carrier;
    if (failed(applyPartialConversion(root, target, std::move(elementwise),
                                      elementwiseConfig))) {
      root->emitError("conversion of elementwise tensor ops to linalg failed");
      return signalPassFailure();
    }

    RewritePatternSet generalization(context);
    generalization.add<GeneralizeNamedOp>(context, keepConvolutions);
    GreedyRewriteConfig generalizationConfig;
    generalizationConfig.setListener(&carrier);
    if (failed(applyPatternsGreedily(root, std::move(generalization),
                                     generalizationConfig))) {
      root->emitError("generalization of named linalg ops did not converge");
      return signalPassFailure();
    }
    if (!fuseElementwise)
      return;

    // The pattern set of upstream `linalg-fuse-elementwise-ops`: a producer
    // is fused only into its single user, so no computation is duplicated.
    // Nor is a producer that reads its own output (an accumulation such as
    // `out + g`, as ckpt-autodiff writes adjoints): upstream fusion then
    // makes that output an output of the fused op under the consumer's map,
    // and where the consumer broadcasts the operand (a loop the producer
    // does not have), every iteration of that loop adds again: wrong
    // results (test/Transforms/fuse-accumulating-producer.mlir).
    // Except an op cheap to repeat in each of its readers (see
    // isCheapToRepeat), into readers that are not contractions (whose
    // GEMM lowerings take their operands' element types from the operands,
    // not from casts in the payload).
    // With the convolutions kept, not into a swap they read (see
    // isSwapReadByConvolution).
    linalg::ControlFusionFn singleUse = [keep = keepConvolutions.getValue()](
                                            OpOperand *fusedOperand) {
      Operation *producer = fusedOperand->get().getDefiningOp();
      if (!producer)
        return false;
      if (keep && isSwapReadByConvolution(fusedOperand->getOwner()))
        return false;
      if (!producer->hasOneUse() && (!isCheapToRepeat(producer) ||
                                     isContraction(fusedOperand->getOwner())))
        return false;
      if (auto linalgProducer = dyn_cast<linalg::LinalgOp>(producer))
        for (OpOperand &init : linalgProducer.getDpsInitsMutable())
          if (linalgProducer.payloadUsesValueFromOperand(&init))
            return false;
      return true;
    };
    RewritePatternSet fusion(context);
    fusion.add<FuseIntoAnnotatedConsumer>(context, singleUse);
    fusion.add<FoldGatherOfOwnPositions>(context);
    linalg::populateElementwiseOpsFusionPatterns(fusion, singleUse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(fusion, singleUse);
    affine::AffineApplyOp::getCanonicalizationPatterns(fusion, context);
    linalg::GenericOp::getCanonicalizationPatterns(fusion, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(fusion, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(fusion, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(fusion);
    linalg::populateConstantFoldLinalgOperations(fusion, singleUse);
    GreedyRewriteConfig fusionConfig;
    fusionConfig.setUseTopDownTraversal(true);
    fusionConfig.setListener(&carrier);
    // Like upstream, a fixpoint that is not reached is not an error: every
    // intermediate state is a correct program.
    (void)applyPatternsGreedily(root, std::move(fusion), fusionConfig);
  }
};

} // namespace
