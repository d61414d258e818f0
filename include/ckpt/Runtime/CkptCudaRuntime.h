/*===- CkptCudaRuntime.h - ckpt CUDA runtime C ABI -----------------*- C
-*-===*\
|*                                                                            *|
|* The ckpt CUDA runtime (libckpt_cuda_runtime): the `mgpu*` entry points     *|
|* that host code lowered by ckpt-gpu-pipeline calls after translation to     *|
|* LLVM IR, device-memory accounting, and the cuBLAS GEMMs the pipeline's     *|
|* `gemm=cublas` path calls, and fused attention. Built from C++, CUDA        *|
|* kernels compiled by nvcc into an embedded fatbin and the CUDA headers (no  *|
|* LLVM/MLIR), linked against the driver API (-lcuda) and cuBLAS.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CKPT_RUNTIME_CKPTCUDARUNTIME_H
#define CKPT_RUNTIME_CKPTCUDARUNTIME_H

#include "ckpt/Runtime/MemRefDescriptors.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Device memory accounting.
 *
 * Every `mgpuMemAlloc` (device or host-shared memory) is counted with the
 * size the compiled code requests; `mgpuMemFree` releases it. Allocations the
 * CUDA libraries make for themselves (cuBLAS workspaces, module images) are
 * not counted: the figures are the program's buffers.
 *
 * Setting CKPT_CUDA_RUNTIME_REPORT prints one line when the process exits:
 * `stdout` or `1` to standard output, `stderr` to standard error, anything
 * else is a file path the line is appended to:
 * `ckpt-cuda-runtime: peak_bytes=P live_bytes=L allocations=A unknown_frees=U`
 *
 * Failures. When no driver or GPU is usable (cuInit fails), the first entry
 * point that needs the device prints
 * `ckpt-cuda-runtime: error: no usable CUDA driver or GPU (cuInit: ...)`
 * and the process exits with status 1; any later failing driver or cuBLAS
 * call prints the call and the error name and exits with status 1 too. Exit
 * handlers (and so the exit report) do not run then: the failure may happen
 * in a module constructor, and the module destructors would call back into
 * the runtime. */

/** Highest number of device bytes live at once since start or last reset. */
int64_t ckpt_cuda_peak_bytes(void);
/** Device bytes allocated and not yet freed. */
int64_t ckpt_cuda_live_bytes(void);
/** Number of device allocations since start or the last reset. */
int64_t ckpt_cuda_allocation_count(void);
/** Number of frees of pointers the runtime did not allocate (a bug). */
int64_t ckpt_cuda_unknown_free_count(void);
/** Starts a new measurement: the peak becomes the bytes live now and the
 * allocation count restarts at zero. Live buffers stay tracked. */
void ckpt_cuda_reset(void);
/** Prints the report line (see above) to stdout. */
void ckpt_cuda_print_report(void);
/** Peak device bytes the runtime held from the driver: live buffers plus
 * freed blocks kept for reuse (the caching allocator of DevicePool.cpp;
 * CKPT_CUDA_CACHING=0 turns it off). Never reset. */
int64_t ckpt_cuda_held_peak_bytes(void);

/* cuBLAS GEMMs: C += op(A) * op(B) on row-major memrefs, as
 * `linalg.matmul` / `linalg.batch_matmul` (and generic contractions with a
 * transposed operand) compute them. The compiled code calls them through
 * MLIR's C interface (`llvm.emit_c_interface`): each memref argument is a
 * pointer to its descriptor. `transA` = 1 when A is stored as [k, m] (else
 * [m, k]); `transB` = 1 when B is stored as [n, k] (else [k, n]); C is
 * [m, n]. The innermost stride of every operand must be 1. The call returns
 * when the product is in C.
 *
 * Variants: `f32` (fp32 inputs, fp32 math), `tf32` (fp32 inputs and output,
 * TF32 tensor-core math), `bf16_f32` (bf16 inputs, fp32 output and math),
 * `bf16` (bf16 inputs and output, fp32 math). */

void _mlir_ciface_ckpt_cuda_gemm_f32(CkptMemRef2D *a, CkptMemRef2D *b,
                                     CkptMemRef2D *c, int32_t transA,
                                     int32_t transB);
void _mlir_ciface_ckpt_cuda_gemm_tf32(CkptMemRef2D *a, CkptMemRef2D *b,
                                      CkptMemRef2D *c, int32_t transA,
                                      int32_t transB);
void _mlir_ciface_ckpt_cuda_gemm_bf16_f32(CkptMemRef2D *a, CkptMemRef2D *b,
                                          CkptMemRef2D *c, int32_t transA,
                                          int32_t transB);
void _mlir_ciface_ckpt_cuda_gemm_bf16(CkptMemRef2D *a, CkptMemRef2D *b,
                                      CkptMemRef2D *c, int32_t transA,
                                      int32_t transB);
void _mlir_ciface_ckpt_cuda_batch_gemm_f32(CkptMemRef3D *a, CkptMemRef3D *b,
                                           CkptMemRef3D *c, int32_t transA,
                                           int32_t transB);
void _mlir_ciface_ckpt_cuda_batch_gemm_tf32(CkptMemRef3D *a, CkptMemRef3D *b,
                                            CkptMemRef3D *c, int32_t transA,
                                            int32_t transB);
void _mlir_ciface_ckpt_cuda_batch_gemm_bf16_f32(CkptMemRef3D *a,
                                                CkptMemRef3D *b,
                                                CkptMemRef3D *c, int32_t transA,
                                                int32_t transB);
void _mlir_ciface_ckpt_cuda_batch_gemm_bf16(CkptMemRef3D *a, CkptMemRef3D *b,
                                            CkptMemRef3D *c, int32_t transA,
                                            int32_t transB);

/* Fused attention (ckpt-attention-to-cuda): ckpt.attention and
 * ckpt.attention_grad on f32 buffers viewed as [batch, heads, rows, width]
 * (`CkptMemRef4D`; the log-sum-exp and the optional key mask, i1 stored one
 * byte per element, as [batch, heads, rows]). Any strides; head widths up to
 * 256. `causal` = 1 masks the keys after each query (top-left aligned);
 * `scale` multiplies the scores. The forward writes `out` and `lse`, the
 * gradient `grad_query`, `grad_key` and `grad_value` (every element: masked
 * keys get zeros). Sums are taken in a fixed order (no atomics): equal
 * inputs give equal bits. The kernels allocate no device memory. A call
 * returns when its results are written; operand shapes that do not agree
 * print an error and exit with status 1. */
void _mlir_ciface_ckpt_cuda_attention_f32(CkptMemRef4D *q, CkptMemRef4D *k,
                                          CkptMemRef4D *v, CkptMemRef4D *out,
                                          CkptMemRef3D *lse, int32_t causal,
                                          double scale);
void _mlir_ciface_ckpt_cuda_attention_masked_f32(
    CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
    CkptMemRef3D *lse, CkptMemRef3D *keyMask, int32_t causal, double scale);
void _mlir_ciface_ckpt_cuda_attention_grad_f32(
    CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
    CkptMemRef3D *lse, CkptMemRef4D *gradOut, CkptMemRef4D *gradQuery,
    CkptMemRef4D *gradKey, CkptMemRef4D *gradValue, int32_t causal,
    double scale);
void _mlir_ciface_ckpt_cuda_attention_grad_masked_f32(
    CkptMemRef4D *q, CkptMemRef4D *k, CkptMemRef4D *v, CkptMemRef4D *out,
    CkptMemRef3D *lse, CkptMemRef4D *gradOut, CkptMemRef4D *gradQuery,
    CkptMemRef4D *gradKey, CkptMemRef4D *gradValue, CkptMemRef3D *keyMask,
    int32_t causal, double scale);

#ifdef __cplusplus
}
#endif

#endif /* CKPT_RUNTIME_CKPTCUDARUNTIME_H */
