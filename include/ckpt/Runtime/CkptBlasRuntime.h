/*===- CkptBlasRuntime.h - BLAS GEMMs for the CPU pipeline -------*- C -*-===//
 *
 * libckpt_blas_runtime: the GEMMs `ckpt-gemm-to-blas` calls, over oneDNN's
 * dnnl_sgemm (f32) and CBLAS (OpenBLAS: f64, and f32 without oneDNN or with
 * CKPT_SGEMM=openblas). C += op(A) * op(B) on row-major memrefs, as
 *`linalg.matmul`, `linalg.batch_matmul` and generic contractions with
 *transposed operands compute them; arguments as for libckpt_cuda_runtime's
 *GEMMs (CkptCudaRuntime.h): descriptors by pointer, `transA` = 1 when A is
 * stored [k, m], `transB` = 1 when B is stored [n, k], C is [m, n], unit
 * innermost strides, `threads` the threads the GEMM runs on (the build's
 * `num-threads`; the runtime splits the GEMM over an OpenMP team, the same
 * way for a given count, which gives the same bits in every run). Nothing is
 *allocated through the ckpt runtime: C is written in place. What the libraries
 *allocate themselves is outside the measured peak: OpenBLAS's work buffers
 *(mapped once, when it starts) and oneDNN's packing buffers (allocated and
 *freed inside each call; benchmarks/cpu/library_workspace.py measures them).
 *
 *===----------------------------------------------------------------------===*/

#ifndef CKPT_RUNTIME_CKPTBLASRUNTIME_H
#define CKPT_RUNTIME_CKPTBLASRUNTIME_H

#include "ckpt/Runtime/MemRefDescriptors.h"

#ifdef __cplusplus
extern "C" {
#endif

void _mlir_ciface_ckpt_cpu_gemm_f32(CkptMemRef2D *a, CkptMemRef2D *b,
                                    CkptMemRef2D *c, int32_t transA,
                                    int32_t transB, int32_t threads);
void _mlir_ciface_ckpt_cpu_gemm_f64(CkptMemRef2D *a, CkptMemRef2D *b,
                                    CkptMemRef2D *c, int32_t transA,
                                    int32_t transB, int32_t threads);
void _mlir_ciface_ckpt_cpu_batch_gemm_f32(CkptMemRef3D *a, CkptMemRef3D *b,
                                          CkptMemRef3D *c, int32_t transA,
                                          int32_t transB, int32_t threads);
void _mlir_ciface_ckpt_cpu_batch_gemm_f64(CkptMemRef3D *a, CkptMemRef3D *b,
                                          CkptMemRef3D *c, int32_t transA,
                                          int32_t transB, int32_t threads);

#ifdef __cplusplus
}
#endif

#endif /* CKPT_RUNTIME_CKPTBLASRUNTIME_H */
