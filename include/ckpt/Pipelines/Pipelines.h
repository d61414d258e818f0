//===- Pipelines.h - named ckpt lowering pipelines --------------*- C++ -*-===//

#ifndef CKPT_PIPELINES_PIPELINES_H
#define CKPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace ckpt {

/// Options of `ckpt-tensor-prep`.
struct TensorPreparationOptions
    : public PassPipelineOptions<TensorPreparationOptions> {
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops on tensors (removes "
                     "intermediate tensors)"),
      llvm::cl::init(true)};
};

/// Builds the tensor stage shared by the lowering pipelines: calls to private
/// functions are inlined (deallocation frees buffers returned by calls only
/// at block end), aggregate ops are decomposed, elementwise arith/math on
/// tensors become linalg ops, named ops are generalized and elementwise ops
/// fused. Its output is the IR that gets bufferized, so the memory analysis
/// and the remat pass run on it.
void buildTensorPreparationPipeline(OpPassManager &pm,
                                    const TensorPreparationOptions &options);

/// Options of `ckpt-cpu-pipeline`.
struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops on tensors before "
                     "bufferization (removes intermediate tensors)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> verifyLowering{
      *this, "verify-lowering",
      llvm::cl::desc("Fail with an error naming every op that is not in the "
                     "LLVM dialect at the end"),
      llvm::cl::init(true)};
};

/// Builds the CPU pipeline: linalg on tensors (with ckpt ops) down to the LLVM
/// dialect, JIT-runnable with mlir-runner. After the tensor preparation,
/// bufferization is followed by `ckpt-lower-recompute`, then buffer
/// deallocation with every free moved right after the buffer's last use;
/// every allocation goes through the generic
/// `_mlir_memref_to_llvm_aligned_alloc` / `_mlir_memref_to_llvm_free` hooks
/// that `libckpt_runtime` implements (and counts); math functions without an
/// LLVM lowering become libm calls.
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Registers `ckpt-tensor-prep` and `ckpt-cpu-pipeline` with the global pass
/// pipeline registry.
void registerCkptPipelines();

} // namespace ckpt
} // namespace mlir

#endif // CKPT_PIPELINES_PIPELINES_H
