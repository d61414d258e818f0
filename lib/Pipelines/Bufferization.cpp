//===- Bufferization.cpp - the bufferization stage of the pipelines -------===//

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void mlir::ckpt::buildBufferizationPipeline(OpPassManager &pm) {
  // The ckpt annotations have been used by now (by the analyses and the
  // remat pass, on tensors). They go before bufferization: on memrefs the
  // annotated ops have no results, which the ckpt dialect rejects for
  // `ckpt.policy` and `ckpt.name`.
  pm.addPass(createStripAnnotationsPass());

  // Identity layouts at function boundaries keep the calling convention
  // plain for callers outside MLIR. The memory analysis runs the same pass
  // with the same options to forecast its decisions.
  pm.addPass(bufferization::createOneShotBufferizePass(
      BufferizationForecast::getPipelineOptions()));

  // Recompute regions survive until here so that nothing merges them back;
  // inline them before deallocation, which rejects unknown region ops.
  pm.addPass(createLowerRecomputePass());

  // Ownership-based deallocation frees at block end; optimize-allocation-
  // liveness moves each free right after the buffer's last use. Without it
  // the peak is the sum of all allocations and recomputation cannot help.
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOptimizeAllocationLivenessPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
}
