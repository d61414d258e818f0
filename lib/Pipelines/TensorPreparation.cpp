//===- TensorPreparation.cpp - ckpt-tensor-prep ---------------------------===//
//
// The tensor stage of the ckpt pipelines: what it outputs is what gets
// bufferized, so the memory analysis and the remat pass see the tensors that
// will really be materialized.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Pipelines/Pipelines.h"
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
  // Random numbers become pure integer arithmetic: recomputing or fusing them
  // reproduces the same bits.
  pm.addPass(createLowerRandomPass());
  pm.addPass(createDecomposeAggregatesPass());
  // A zero-filled tensor shared by many matmuls (what importers and CSE
  // produce) would be one buffer alive across the whole step.
  pm.addPass(createPrivatizeInitsPass());
  // Elementwise tensor ops to linalg, generalization and fusion keep the
  // ckpt annotations (names, policies, phases) that the upstream passes
  // would drop.
  GeneralizeAndFusePassOptions generalizeAndFuse;
  generalizeAndFuse.fuseElementwise = options.fuseElementwise;
  pm.addPass(createGeneralizeAndFusePass(generalizeAndFuse));
}

void mlir::ckpt::buildRematPipeline(OpPassManager &pm,
                                    const RematPipelineOptions &options) {
  buildTensorPreparationPipeline(pm, TensorPreparationOptions());
  RematPassOptions remat;
  remat.budget = options.budget;
  remat.reportFile = options.report;
  remat.target = options.target;
  remat.solver = options.solver;
  remat.policy = options.policy;
  remat.timeLimit = options.timeLimit;
  pm.addPass(createRematPass(remat));
}

void mlir::ckpt::buildTensorAndRematStages(OpPassManager &pm,
                                           bool fuseElementwise,
                                           const RematStageSettings &settings) {
  TensorPreparationOptions tensorPrep;
  tensorPrep.fuseElementwise = fuseElementwise;
  buildTensorPreparationPipeline(pm, tensorPrep);
  if (settings.budget.empty())
    return;
  RematPassOptions remat;
  remat.budget = settings.budget;
  remat.functionNames.assign(settings.functions.begin(),
                             settings.functions.end());
  remat.solver = settings.solver;
  remat.policy = settings.policy;
  remat.reportFile = settings.report;
  remat.timeLimit = settings.timeLimit;
  pm.addPass(createRematPass(remat));
}
