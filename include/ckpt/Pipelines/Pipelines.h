//===- Pipelines.h - named ckpt lowering pipelines --------------*- C++ -*-===//

#ifndef CKPT_PIPELINES_PIPELINES_H
#define CKPT_PIPELINES_PIPELINES_H

#include "ckpt/Remat/RematOptions.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

/// The CUDA toolkit the GPU pipeline uses unless told otherwise (the one
/// CMake found, else the usual install location).
#ifndef CKPT_DEFAULT_CUDA_PATH
#define CKPT_DEFAULT_CUDA_PATH "/usr/local/cuda"
#endif

namespace mlir {
class OpPassManager;

namespace ckpt {

/// Options of `ckpt-tensor-prep`.
struct TensorPreparationOptions
    : public PassPipelineOptions<TensorPreparationOptions> {
  ::mlir::detail::PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops on tensors (removes "
                     "intermediate tensors)"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> convolutionsToGemm{
      *this, "convolutions-to-gemm",
      llvm::cl::desc("Rewrite f32/f64 2-D convolutions as an im2col copy and "
                     "a matmul (ckpt-convolution-to-gemm), for a BLAS"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<bool> gemmOperandsToF32{
      *this, "gemm-operands-to-f32",
      llvm::cl::desc("Let bf16/f16 matrix products read f32 copies of their "
                     "operands (ckpt-widen-gemm-operands), for a BLAS "
                     "without narrow GEMMs"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<bool> scatterOneHotProducts{
      *this, "scatter-one-hot-products",
      llvm::cl::desc("Rewrite contractions of one-hot matrices (embedding "
                     "gradients) as loops that add each row into its "
                     "token's row (ckpt-one-hot-products-to-scatter)"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<bool> decomposeAttention{
      *this, "decompose-attention",
      llvm::cl::desc("Decompose ckpt.attention and ckpt.attention_grad into "
                     "linalg (ckpt-decompose-attention), for backends "
                     "without a fused attention lowering"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<int64_t> f32MinExtent{
      *this, "f32-min-extent",
      llvm::cl::desc("Reductions into f32 over at least this many elements "
                     "per result accumulate in f64 (ckpt-widen-accumulators; "
                     "0: f32 reductions are left as they are)"),
      llvm::cl::init(256)};
  ::mlir::detail::PassOptions::Option<bool> keepCudaAttention{
      *this, "keep-cuda-attention",
      llvm::cl::desc("With decompose-attention, leave the attention ops the "
                     "fused CUDA kernels take (f32, head widths up to 256)"),
      llvm::cl::init(false)};
};

/// Builds the tensor stage shared by the lowering pipelines: calls to private
/// functions are inlined (deallocation frees buffers returned by calls only
/// at block end), aggregate ops are decomposed, elementwise arith/math on
/// tensors become linalg ops, named ops are generalized and elementwise ops
/// fused, and reductions into bf16/f16 accumulate in f32
/// (`ckpt-widen-accumulators`). Its output is the IR that gets bufferized, so
/// the memory analysis and the remat pass run on it.
void buildTensorPreparationPipeline(OpPassManager &pm,
                                    const TensorPreparationOptions &options);

/// Options of `ckpt-remat-pipeline`: ckpt-remat's, with its keys.
struct RematPipelineOptions : public PassPipelineOptions<RematPipelineOptions> {
  RematPipelineOptionGroup</*Prefixed=*/false> remat{*this};
};

/// Builds the default remat pipeline: the tensor preparation, then
/// `ckpt-remat` with the given budget. `ckpt-opt --remat-budget=2GiB` runs it.
void buildRematPipeline(OpPassManager &pm, const RematPipelineOptions &options);

/// Builds the bufferization stage shared by the lowering pipelines:
/// `ckpt-strip-annotations` (the annotations are used on tensors; on memrefs
/// they would sit on ops without results), One-Shot Bufferize with the
/// options the memory analysis forecasts
/// (`BufferizationForecast::getPipelineOptions`), `ckpt-lower-recompute`
/// (recompute regions survive until here so nothing merges them back), then
/// ownership-based deallocation with every free moved right after the buffer's
/// last use (`optimize-allocation-liveness`).
void buildBufferizationPipeline(OpPassManager &pm);

/// Options both lowering pipelines share: the tensor stage, an optional
/// `ckpt-remat` stage after it (the CPU and GPU builds of one program then
/// rematerialize identically) and the final verification.
template <typename Derived>
struct LoweringPipelineOptions : public PassPipelineOptions<Derived> {
  ::mlir::detail::PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops on tensors before "
                     "bufferization (removes intermediate tensors)"),
      llvm::cl::init(true)};
  /// ckpt-remat's options as `remat-KEY`; no remat while `remat-budget` is
  /// empty.
  RematPipelineOptionGroup</*Prefixed=*/true> remat{*this};
  ::mlir::detail::PassOptions::Option<bool> verifyLowering{
      *this, "verify-lowering",
      llvm::cl::desc("Fail with an error naming every op the lowering left "
                     "behind"),
      llvm::cl::init(true)};
};

/// Adds the tensor preparation and, when `remat.budget` is set, `ckpt-remat`:
/// the stages before bufferization that the CPU and GPU pipelines share.
void buildTensorAndRematStages(OpPassManager &pm,
                               const TensorPreparationOptions &tensorPrep,
                               const RematOptions &remat);

/// Options of `ckpt-cpu-pipeline`.
struct CpuPipelineOptions : public LoweringPipelineOptions<CpuPipelineOptions> {
  ::mlir::detail::PassOptions::Option<bool> gpuMapping{
      *this, "gpu-mapping",
      llvm::cl::desc("Map linalg ops to GPU blocks and threads as "
                     "ckpt-gpu-pipeline does (ckpt-map-linalg-to-gpu) and run "
                     "those loops on the CPU: checks the kernels' indexing and "
                     "reductions without a GPU"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<std::string> gemm{
      *this, "gemm",
      llvm::cl::desc(
          "How f32/f64 matmul-like ops run: 'codegen' (loops) or "
          "'blas' (ckpt-gemm-to-blas: oneDNN and OpenBLAS "
          "calls in libckpt_blas_runtime; 2-D convolutions become im2col "
          "and a matmul first, ckpt-convolution-to-gemm)"),
      llvm::cl::init("codegen")};
  ::mlir::detail::PassOptions::Option<int64_t> threads{
      *this, "num-threads",
      llvm::cl::desc(
          "Threads the step runs on: its GEMMs (gemm=blas) and, "
          "above 1, its parallel loops with enough work (OpenMP: "
          "ckpt-coarsen-parallel-loops, convert-scf-to-openmp; the "
          "build links libomp). Each loop iteration computes what it "
          "does on one thread, so only the GEMMs' bits may change"),
      llvm::cl::init(1)};
  ::mlir::detail::PassOptions::Option<bool> libmMath{
      *this, "libm-math",
      llvm::cl::desc("Compute f32 exp, log, log1p, expm1, tanh and erf with "
                     "libm, one call per element, instead of MLIR's "
                     "polynomial approximations (ckpt-approximate-math), "
                     "which vectorize"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<std::string> profileIR{
      *this, "profile-ir",
      llvm::cl::desc("Write the IR as it is before the loop lowering (on "
                     "buffers, GEMMs as calls) to this file, give every op "
                     "its line there and emit line tables, so that a "
                     "profiler attributes the step's time to those ops "
                     "(perf report --sort srcline)"),
      llvm::cl::init("")};
};

/// Checks the option values of `ckpt-cpu-pipeline` that have a fixed set of
/// accepted forms; the message names the accepted forms.
LogicalResult verifyCpuPipelineOptions(const CpuPipelineOptions &options,
                                       std::string &message);

/// Builds the CPU pipeline: linalg on tensors (with ckpt ops) down to the LLVM
/// dialect, JIT-runnable with mlir-runner. After the tensor preparation,
/// bufferization is followed by `ckpt-lower-recompute`, then buffer
/// deallocation with every free moved right after the buffer's last use;
/// every allocation goes through the generic
/// `_mlir_memref_to_llvm_aligned_alloc` / `_mlir_memref_to_llvm_free` hooks
/// that `libckpt_runtime` implements (and counts); math functions without an
/// LLVM lowering become libm calls.
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Options of `ckpt-gpu-pipeline`.
struct GpuPipelineOptions : public LoweringPipelineOptions<GpuPipelineOptions> {
  ::mlir::detail::PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture the cubin is compiled for (CUDA 13's "
                     "ptxas rejects sm_50, the upstream default)"),
      llvm::cl::init("sm_90")};
  ::mlir::detail::PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features of the target (sm_90 needs PTX >= 7.8)"),
      llvm::cl::init("+ptx80")};
  ::mlir::detail::PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu.binary holds: bin (cubin), fatbin, isa (PTX) "
                     "or offloading (LLVM IR)"),
      llvm::cl::init("bin")};
  ::mlir::detail::PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose ptxas and libdevice build the "
                     "kernels"),
      llvm::cl::init(CKPT_DEFAULT_CUDA_PATH)};
  ::mlir::detail::PassOptions::Option<std::string> gemm{
      *this, "gemm",
      llvm::cl::desc("How matmul-like ops run: 'cublas' (calls into "
                     "libckpt_cuda_runtime) or 'codegen' (generated kernels)"),
      llvm::cl::init("cublas")};
  ::mlir::detail::PassOptions::Option<bool> allowTF32{
      *this, "allow-tf32",
      llvm::cl::desc("Run f32 cuBLAS GEMMs with TF32 tensor-core math"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<bool> fusedAttention{
      *this, "fused-attention",
      llvm::cl::desc("Run ckpt.attention and ckpt.attention_grad as the "
                     "fused kernels of libckpt_cuda_runtime where they take "
                     "them (f32, head widths up to 256; "
                     "ckpt-attention-to-cuda), decomposed into linalg "
                     "otherwise or when false"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<bool> resultsOnDevice{
      *this, "results-on-device",
      llvm::cl::desc("Keep the function's results in device memory (for "
                     "callers that copy them out with the runtime, as "
                     "ckpt-compile's glue does)"),
      llvm::cl::init(false)};
  ::mlir::detail::PassOptions::Option<bool> hostShared{
      *this, "host-shared",
      llvm::cl::desc("Allocate the buffers host code touches (results, "
                     "host loads, printing) in managed memory and the rest "
                     "in device memory; all in device memory otherwise"),
      llvm::cl::init(true)};
  ::mlir::detail::PassOptions::Option<std::string> kernelReport{
      *this, "kernel-report",
      llvm::cl::desc("Write ckpt-map-linalg-to-gpu's estimate of every "
                     "kernel (roofline time, efficiency) to this JSON file"),
      llvm::cl::init("")};
  ::mlir::detail::PassOptions::Option<unsigned> threadsPerBlock{
      *this, "threads-per-block",
      llvm::cl::desc("Threads per block of the generated kernels"),
      llvm::cl::init(256)};
};

/// Builds the GPU pipeline: linalg on tensors (with ckpt ops) to a host
/// module in the LLVM dialect that embeds the kernels as a cubin
/// (`gpu.binary`) and launches them with `gpu.launch_func`; translating it to
/// LLVM IR produces the `mgpu*` calls libckpt_cuda_runtime implements. The
/// stages: the tensor preparation and bufferization of the CPU pipeline,
/// `ckpt-lower-recompute`, deallocation with frees after last use, matmul-
/// like ops to cuBLAS calls (`gemm=cublas`), buffers to GPU allocations,
/// linalg ops to block/thread-mapped loops and kernels, then the steps of
/// upstream's `gpu-lower-to-nvvm-pipeline` with the chosen chip, features,
/// format and CUDA toolkit.
void buildGpuPipeline(OpPassManager &pm, const GpuPipelineOptions &options);

/// Checks the option values of `ckpt-gpu-pipeline` that have a fixed set of
/// accepted forms; the message names the accepted forms.
LogicalResult verifyGpuPipelineOptions(const GpuPipelineOptions &options,
                                       std::string &message);

/// Registers `ckpt-tensor-prep`, `ckpt-cpu-pipeline` and `ckpt-gpu-pipeline`
/// with the global pass pipeline registry.
void registerCkptPipelines();

} // namespace ckpt
} // namespace mlir

#endif // CKPT_PIPELINES_PIPELINES_H
