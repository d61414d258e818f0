//===- GeneralizeAndFuse.cpp - generalization and fusion keeping ckpt.* ---===//
//
// Implements `ckpt-generalize-and-fuse`: the upstream generalization and
// elementwise fusion patterns, driven with a listener that moves the ckpt
// annotations from each replaced op onto its replacement.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptDialect.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
    linalg::ControlFusionFn singleUse = [](OpOperand *fusedOperand) {
      Operation *producer = fusedOperand->get().getDefiningOp();
      if (!producer || !producer->hasOneUse())
        return false;
      if (auto linalgProducer = dyn_cast<linalg::LinalgOp>(producer))
        for (OpOperand &init : linalgProducer.getDpsInitsMutable())
          if (linalgProducer.payloadUsesValueFromOperand(&init))
            return false;
      return true;
    };
    RewritePatternSet fusion(context);
    fusion.add<FuseIntoAnnotatedConsumer>(context, singleUse);
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
