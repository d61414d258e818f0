//===- CpuPipeline.cpp - ckpt-cpu-pipeline --------------------------------===//
//
// Linalg on tensors (with ckpt ops) to the LLVM dialect, with allocations
// routed through the ckpt runtime and frees placed right after last use, so
// that the peak the runtime measures is the peak the program needs.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Conversion/Passes.h"
#include "ckpt/Dialect/Ckpt/Transforms/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

LogicalResult
mlir::ckpt::verifyCpuPipelineOptions(const CpuPipelineOptions &options,
                                     std::string &message) {
  if (options.gemm != "codegen" && options.gemm != "blas") {
    message = "ckpt-cpu-pipeline: gemm must be 'codegen' or 'blas', got '" +
              options.gemm.getValue() + "'";
    return failure();
  }
  if (options.threads < 1 || options.threads > 4096) {
    message =
        "ckpt-cpu-pipeline: num-threads must be between 1 and 4096, got " +
        std::to_string(options.threads.getValue());
    return failure();
  }
  if (options.threads > 1 && options.gpuMapping) {
    message = "ckpt-cpu-pipeline: gpu-mapping runs its block and thread "
              "loops on one thread; it takes no num-threads above 1";
    return failure();
  }
  return success();
}

void mlir::ckpt::buildCpuPipeline(OpPassManager &pm,
                                  const CpuPipelineOptions &options) {
  TensorPreparationOptions tensorPrep;
  tensorPrep.fuseElementwise = options.fuseElementwise;
  tensorPrep.convolutionsToGemm = options.gemm == "blas";
  tensorPrep.gemmOperandsToF32 = options.gemm == "blas";
  tensorPrep.scatterOneHotProducts = true;
  buildTensorAndRematStages(pm, tensorPrep, options.remat.get());

  buildBufferizationPipeline(pm);
  // Attention as loops that allocate nothing (an online softmax per row).
  pm.addPass(ckpt::createLowerAttentionPass());
  // GEMMs through BLAS after deallocation: C is written in place, so every
  // buffer and free stays where the forecast has it.
  if (options.gemm == "blas") {
    GemmToBlasPassOptions blas;
    blas.threads = options.threads;
    pm.addPass(ckpt::createGemmToBlasPass(blas));
  }
  if (options.gpuMapping) {
    // The kernels' block and thread loops (scf.parallel), run sequentially.
    pm.addPass(ckpt::createMapLinalgToGpuPass());
  }

  // Copies that are not one block as loops, not the runtime's generic
  // element-by-element copy.
  pm.addPass(ckpt::createStridedCopiesToLinalgPass());
  // Window ops (depthwise and grouped convolutions, pooling) with their
  // contiguous parallel loop innermost, where LLVM vectorizes it.
  if (!options.gpuMapping)
    pm.addNestedPass<func::FuncOp>(ckpt::createInterchangeWindowLoopsPass());

  if (!options.profileIR.empty()) {
    LocationSnapshotOptions snapshot;
    snapshot.fileName = options.profileIR;
    pm.addPass(createLocationSnapshot(snapshot));
  }

  // Loops and scalar code: with threads, the outer parallel loops of the ops
  // with enough work on an OpenMP team, the rest sequential.
  bool openMP = options.threads > 1;
  if (openMP) {
    pm.addPass(createConvertLinalgToParallelLoopsPass());
    CoarsenParallelLoopsPassOptions coarsen;
    coarsen.threads = options.threads;
    pm.addPass(ckpt::createCoarsenParallelLoopsPass(coarsen));
    ConvertSCFToOpenMPPassOptions toOpenMP;
    toOpenMP.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(toOpenMP));
    pm.addNestedPass<func::FuncOp>(ckpt::createHoistLoopAllocasPass());
    pm.addPass(ckpt::createInlineAllocaScopesPass());
  } else {
    pm.addPass(createConvertLinalgToLoopsPass());
    pm.addNestedPass<func::FuncOp>(ckpt::createHoistLoopAllocasPass());
  }
  // One function per loop nest: LLVM optimizes each in time linear in the
  // step.
  pm.addPass(ckpt::createOutlineLoopNestsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());

  // bf16 and f16 arithmetic and math computed in f32, each op rounded once;
  // bf16 casts as integer arithmetic (no libgcc/compiler-rt helper).
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16", "f16"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  pm.addPass(ckpt::createLegalizeNarrowFloatCastsPass());
  // f32 transcendental functions as polynomials LLVM vectorizes.
  if (!options.libmMath)
    pm.addPass(ckpt::createApproximateMathPass());

  // Math: LLVM intrinsics where they exist, libm for the rest (f64 erf,
  // sin, and every function with libm-math).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Vector ops (e.g. vector.print in tests and drivers).
  pm.addPass(createConvertVectorToLLVMPass());

  // To LLVM. Generic allocation functions let libckpt_runtime count every
  // byte; aligned allocation requests exactly the buffer size rounded up to
  // its alignment instead of size + alignment.
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  if (openMP)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // The outlined nests' buffers that nothing else reaches, as noalias
  // pointers.
  pm.addPass(ckpt::createApplyNoAliasPointersPass());
  pm.addPass(ckpt::createBooleansAsBytesPass());
  // Line tables from the snapshot's locations.
  if (!options.profileIR.empty())
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass());
  if (options.verifyLowering) {
    VerifyLLVMLoweringPassOptions verify;
    verify.allowOpenMP = openMP;
    pm.addPass(ckpt::createVerifyLLVMLoweringPass(verify));
  }
}

/// Registers a pipeline whose options are checked by `verify` before it is
/// built: a bad value is the parse error, with the accepted forms.
template <typename Options>
static void registerVerifiedPipeline(StringRef name, StringRef description,
                                     void (*build)(OpPassManager &,
                                                   const Options &),
                                     LogicalResult (*verify)(const Options &,
                                                             std::string &)) {
  registerPassPipeline(
      name, description,
      [build, verify](OpPassManager &pm, StringRef text,
                      function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string message;
        if (failed(verify(options, message)))
          return errorHandler(message);
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(Options());
      });
}

void mlir::ckpt::registerCkptPipelines() {
  PassPipelineRegistration<TensorPreparationOptions>(
      "ckpt-tensor-prep",
      "Prepare linalg on tensors for bufferization as the ckpt pipelines do "
      "(inline private functions, decompose, generalize, fuse, widen bf16/f16 "
      "accumulators to f32); the memory "
      "analysis and the remat pass run on its output",
      buildTensorPreparationPipeline);
  PassPipelineRegistration<RematPipelineOptions>(
      "ckpt-remat-pipeline",
      "Prepare linalg on tensors and rematerialize to a memory budget "
      "(what ckpt-opt --remat-budget runs)",
      buildRematPipeline);
  registerVerifiedPipeline<CpuPipelineOptions>(
      "ckpt-cpu-pipeline",
      "Lower linalg on tensors (with ckpt ops) to the LLVM dialect for CPU "
      "execution, with every allocation counted by libckpt_runtime",
      buildCpuPipeline, verifyCpuPipelineOptions);
  registerVerifiedPipeline<GpuPipelineOptions>(
      "ckpt-gpu-pipeline",
      "Lower linalg on tensors (with ckpt ops) to an LLVM host module with "
      "embedded CUDA kernels (gpu.binary), GPU buffers counted by "
      "libckpt_cuda_runtime and matmuls through cuBLAS",
      buildGpuPipeline, verifyGpuPipelineOptions);
}
