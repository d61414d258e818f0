//===- TensorPreparation.cpp - ckpt-tensor-prep ---------------------------===//
//
// The tensor stage of the ckpt pipelines: what it outputs is what gets
// bufferized, so the memory analysis and the remat pass see the tensors that
// will really be materialized.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Remat/Passes.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::ckpt::buildTensorPreparationPipeline(
    OpPassManager &pm, const TensorPreparationOptions &options) {
  // Calls to private functions are inlined: deallocation cannot know who
  // owns a buffer returned by a call, frees it only at the end of the
  // caller's block, and the peak then exceeds what the program needs.
  pm.addPass(createInlinePrivateFunctionsPass());
  // The caller's tensors are never written (a write copies them first).
  pm.addPass(createReadOnlyArgumentsPass());
  // Random numbers become pure integer arithmetic: recomputing or fusing them
  // reproduces the same bits.
  pm.addPass(createLowerRandomPass());
  // Attention as linalg where the backend has no fused lowering of its own
  // (for the GPU: for the ops its fused kernels do not take).
  if (options.decomposeAttention) {
    DecomposeAttentionPassOptions decompose;
    decompose.keepCudaKernels = options.keepCudaAttention;
    pm.addPass(createDecomposeAttentionPass(decompose));
  }
  pm.addPass(createDecomposeAggregatesPass());
  // A zero-filled tensor shared by many matmuls (what importers and CSE
  // produce) would be one buffer alive across the whole step.
  pm.addPass(createPrivatizeInitsPass());
  // A convolution whose reader keeps a window of its positions (a strided
  // convolution's weight gradient) computes only that window.
  pm.addPass(createShrinkSlicedConvolutionsPass());
  // Elementwise tensor ops to linalg, generalization and fusion keep the
  // ckpt annotations (names, policies, phases) that the upstream passes
  // would drop.
  GeneralizeAndFusePassOptions generalizeAndFuse;
  generalizeAndFuse.fuseElementwise = options.fuseElementwise;
  generalizeAndFuse.keepConvolutions = options.convolutionsToGemm;
  pm.addPass(createGeneralizeAndFusePass(generalizeAndFuse));
  // Pools' windows read their input through bounds checks, not a padded
  // copy (generics since the generalization).
  pm.addPass(createFoldPoolingPadsPass());
  // Again: the fusion's folding and CSE make one fill of the fills that
  // were reshaped views of one tensor before (a grouped convolution's
  // forward and its gradients' accumulators), which would be one buffer
  // from the forward to the end of the backward.
  pm.addPass(createPrivatizeInitsPass());
  // Reductions into bf16/f16 (an autocast step's matmuls and bias
  // gradients) accumulate in f32 as PyTorch's do, and long f32 sums in f64
  // (a loop sums one element after the other); before the memory analysis,
  // so the wide accumulators are counted.
  WidenAccumulatorsPassOptions widen;
  widen.f32MinExtent = options.f32MinExtent;
  pm.addPass(createWidenAccumulatorsPass(widen));
  // Sums the widening made equal (BatchNorm's mean, summed for its
  // variance and again to be saved) are computed once.
  pm.addPass(createMergeRepeatedReductionsPass());
  // Embedding gradients add rows instead of multiplying by one-hot
  // matrices; the loops bufferize in place.
  if (options.scatterOneHotProducts)
    pm.addPass(createOneHotProductsToScatterPass());
  // Narrow matrix products through the BLAS's f32 GEMMs, on copies counted
  // like any other value.
  if (options.gemmOperandsToF32)
    pm.addPass(createWidenGemmOperandsPass());
  // Convolutions as GEMMs, after the fusion (which would fold the patch
  // copy back into the multiplication) and before the memory analysis, so
  // the patch tensors are counted like any other value.
  if (options.convolutionsToGemm)
    pm.addPass(createConvolutionToGemmPass());
  // Elementwise results written into inputs that die there (a gradient's
  // mask applied to the incoming gradient): one buffer instead of two, which
  // the memory analysis and the planner count.
  pm.addPass(createOverwriteDyingInputsPass());
}

void mlir::ckpt::buildRematPipeline(OpPassManager &pm,
                                    const RematPipelineOptions &options) {
  buildTensorPreparationPipeline(pm, TensorPreparationOptions());
  pm.addPass(createRematPass(options.remat.get()));
}

void mlir::ckpt::buildTensorAndRematStages(
    OpPassManager &pm, const TensorPreparationOptions &tensorPrep,
    const RematOptions &remat) {
  buildTensorPreparationPipeline(pm, tensorPrep);
  if (!remat.budget.empty())
    pm.addPass(createRematPass(remat));
}
