//===- GpuPipeline.cpp - ckpt-gpu-pipeline --------------------------------===//
//
// Linalg on tensors (with ckpt ops) to a host module in the LLVM dialect
// that embeds its kernels as a cubin. Buffers are GPU allocations freed
// right after their last use, so libckpt_cuda_runtime measures the device
// memory the program needs.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Conversion/Passes.h"
#include "ckpt/Pipelines/Pipelines.h"
#include "ckpt/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

LogicalResult
mlir::ckpt::verifyGpuPipelineOptions(const GpuPipelineOptions &options,
                                     std::string &message) {
  if (options.gemm != "cublas" && options.gemm != "codegen") {
    message = "ckpt-gpu-pipeline: gemm must be 'cublas' or 'codegen', got '" +
              options.gemm.getValue() + "'";
    return failure();
  }
  if (!llvm::is_contained({"bin", "fatbin", "isa", "offloading"},
                          options.format.getValue())) {
    message = "ckpt-gpu-pipeline: format must be 'bin', 'fatbin', 'isa' or "
              "'offloading', got '" +
              options.format.getValue() + "'";
    return failure();
  }
  if (!StringRef(options.chip).starts_with("sm_")) {
    message = "ckpt-gpu-pipeline: chip must name an NVIDIA architecture "
              "such as 'sm_90', got '" +
              options.chip.getValue() + "'";
    return failure();
  }
  return success();
}

void mlir::ckpt::buildGpuPipeline(OpPassManager &pm,
                                  const GpuPipelineOptions &options) {
  // The tensor and remat stages and bufferization of the CPU pipeline: the
  // memory analysis forecasts exactly these buffers.
  TensorPreparationOptions tensorPrep;
  tensorPrep.fuseElementwise = options.fuseElementwise;
  tensorPrep.decomposeAttention = true;
  tensorPrep.keepCudaAttention = options.fusedAttention;
  buildTensorAndRematStages(pm, tensorPrep, options.remat.get());
  // Frees right after last use are placed while everything is host code:
  // deallocation rejects the barriers kernels contain.
  buildBufferizationPipeline(pm);

  // Library calls first: what they take is not generated.
  if (options.fusedAttention)
    pm.addPass(ckpt::createAttentionToCudaPass());
  if (options.gemm == "cublas") {
    GemmToCublasPassOptions gemm;
    gemm.allowTF32 = options.allowTF32;
    pm.addPass(ckpt::createGemmToCublasPass(gemm));
  }

  // Device memory, then kernels.
  DeviceAllocationsPassOptions allocations;
  allocations.hostShared = options.hostShared;
  allocations.resultsOnDevice = options.resultsOnDevice;
  pm.addPass(ckpt::createDeviceAllocationsPass(allocations));
  MapLinalgToGpuPassOptions mapping;
  mapping.threadsPerBlock = options.threadsPerBlock;
  mapping.report = options.kernelReport;
  pm.addPass(ckpt::createMapLinalgToGpuPass(mapping));
  pm.addPass(createConvertParallelLoopToGpuPass());

  // Outlining, NVVM, cubin, host to LLVM: the passes (and order) of
  // upstream's gpu-lower-to-nvvm-pipeline in MLIR 22, with our target and
  // the CUDA toolkit named explicitly: the upstream pipeline finds ptxas and
  // libdevice only through PATH and CUDA_HOME-like variables, and without
  // libdevice every kernel calling a math function fails in ptxas.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  // One cubin for all kernels: one ptxas run instead of one per kernel.
  pm.addPass(ckpt::createMergeGpuModulesPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip.getValue();
  target.features = options.features.getValue();
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels: GPU ops, math (libdevice calls) and memrefs to NVVM/LLVM.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // Host: launches and allocations to runtime calls, kernels to binaries.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format.getValue();
  binary.toolkitPath = options.cudaPath.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  if (options.verifyLowering) {
    VerifyLLVMLoweringPassOptions verify;
    verify.allowGpuBinary = true;
    pm.addPass(ckpt::createVerifyLLVMLoweringPass(verify));
  }
}
