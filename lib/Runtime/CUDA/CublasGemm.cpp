//===- CublasGemm.cpp - cuBLAS GEMMs on row-major memrefs -----------------===//
//
// The library calls of ckpt-gpu-pipeline's `gemm=cublas` path (see
// include/ckpt/Runtime/CkptCudaRuntime.h). cuBLAS is column-major: a
// row-major C[m, n] is a column-major C^T, and C^T = op(B)^T op(A)^T, so
// each call passes B first and swaps m and n.
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include "ckpt/Runtime/CkptCudaRuntime.h"

#include <cublas_v2.h>

#include <cstdio>
#include <mutex>

namespace {

/// One cuBLAS configuration: storage types and compute type.
struct GemmKind {
  const char *name;
  cudaDataType_t inputType;
  cudaDataType_t outputType;
  cublasComputeType_t computeType;
  int64_t inputElementBytes;
  int64_t outputElementBytes;
};

constexpr GemmKind kF32{"f32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                        4,     4};
constexpr GemmKind kTF32{
    "tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4};
constexpr GemmKind kBF16F32{"bf16_f32",         CUDA_R_16BF, CUDA_R_32F,
                            CUBLAS_COMPUTE_32F, 2,           4};
constexpr GemmKind kBF16{
    "bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2};

void checkBlas(cublasStatus_t status, const char *what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return;
  char message[256];
  std::snprintf(message, sizeof(message), "%s failed: %s", what,
                cublasGetStatusString(status));
  ckpt::cuda::fail(message);
}

/// The handle and the stream all GEMMs run on, created on first use.
struct BlasState {
  cublasHandle_t handle = nullptr;
  CUstream stream = nullptr;
};

BlasState &getBlas() {
  static BlasState state;
  static std::once_flag once;
  ckpt::cuda::ensureContext();
  std::call_once(once, [] {
    ckpt::cuda::check(cuStreamCreate(&state.stream, CU_STREAM_NON_BLOCKING),
                      "cuStreamCreate");
    checkBlas(cublasCreate(&state.handle), "cublasCreate");
    checkBlas(cublasSetStream(state.handle,
                              reinterpret_cast<cudaStream_t>(state.stream)),
              "cublasSetStream");
  });
  return state;
}

/// One operand as cuBLAS sees it: data pointer, leading dimension and the
/// stride between batch entries.
struct Operand {
  void *data;
  int64_t leadingDim;
  int64_t batchStride;
};

/// Reads a rank-2 or rank-3 descriptor (`sizes`/`strides` of `rank`).
Operand describe(void *aligned, int64_t offset, const int64_t *sizes,
                 const int64_t *strides, int rank, int64_t elementBytes,
                 const char *which) {
  if (strides[rank - 1] != 1 && sizes[rank - 1] > 1) {
    char message[160];
    std::snprintf(message, sizeof(message),
                  "GEMM operand %s has innermost stride %lld (must be 1)",
                  which, static_cast<long long>(strides[rank - 1]));
    ckpt::cuda::fail(message);
  }
  Operand operand;
  operand.data = static_cast<char *>(aligned) + offset * elementBytes;
  operand.leadingDim = strides[rank - 2] > 0 ? strides[rank - 2] : 1;
  operand.batchStride = rank == 3 ? strides[0] : 0;
  return operand;
}

/// C[batch][m][n] += op(A) op(B) with the shapes taken from the descriptors.
void gemm(const GemmKind &kind, int rank, void *aAligned, int64_t aOffset,
          const int64_t *aSizes, const int64_t *aStrides, void *bAligned,
          int64_t bOffset, const int64_t *bSizes, const int64_t *bStrides,
          void *cAligned, int64_t cOffset, const int64_t *cSizes,
          const int64_t *cStrides, int32_t transA, int32_t transB) {
  int d = rank - 2; // Index of the first matrix dimension.
  int64_t batch = rank == 3 ? cSizes[0] : 1;
  int64_t m = cSizes[d], n = cSizes[d + 1];
  int64_t k = transA ? aSizes[d] : aSizes[d + 1];
  int64_t aM = transA ? aSizes[d + 1] : aSizes[d];
  int64_t bK = transB ? bSizes[d + 1] : bSizes[d];
  int64_t bN = transB ? bSizes[d] : bSizes[d + 1];
  bool batchMismatch = rank == 3 && (aSizes[0] != batch || bSizes[0] != batch);
  if (aM != m || bN != n || bK != k || batchMismatch) {
    char message[200];
    std::snprintf(message, sizeof(message),
                  "GEMM %s: operand shapes do not agree (C %lldx%lld, "
                  "k %lld vs %lld)",
                  kind.name, static_cast<long long>(m),
                  static_cast<long long>(n), static_cast<long long>(k),
                  static_cast<long long>(bK));
    ckpt::cuda::fail(message);
  }
  if (m == 0 || n == 0 || batch == 0)
    return;
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Gemm);

  Operand a = describe(aAligned, aOffset, aSizes, aStrides, rank,
                       kind.inputElementBytes, "A");
  Operand b = describe(bAligned, bOffset, bSizes, bStrides, rank,
                       kind.inputElementBytes, "B");
  Operand c = describe(cAligned, cOffset, cSizes, cStrides, rank,
                       kind.outputElementBytes, "C");
  BlasState &blas = getBlas();
  // linalg semantics: the product accumulates into C.
  float alpha = 1.0f, beta = 1.0f;
  cublasOperation_t opB = transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opA = transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  checkBlas(cublasGemmStridedBatchedEx(
                blas.handle, opB, opA, n, m, k, &alpha, b.data, kind.inputType,
                b.leadingDim, b.batchStride, a.data, kind.inputType,
                a.leadingDim, a.batchStride, &beta, c.data, kind.outputType,
                c.leadingDim, c.batchStride, batch, kind.computeType,
                CUBLAS_GEMM_DEFAULT),
            "cublasGemmStridedBatchedEx");
  // Kernels launched next run on other streams: the product must be done.
  ckpt::cuda::check(cuStreamSynchronize(blas.stream), "cuStreamSynchronize");
}

void gemm2D(const GemmKind &kind, CkptMemRef2D *a, CkptMemRef2D *b,
            CkptMemRef2D *c, int32_t transA, int32_t transB) {
  gemm(kind, 2, a->aligned, a->offset, a->sizes, a->strides, b->aligned,
       b->offset, b->sizes, b->strides, c->aligned, c->offset, c->sizes,
       c->strides, transA, transB);
}

void gemm3D(const GemmKind &kind, CkptMemRef3D *a, CkptMemRef3D *b,
            CkptMemRef3D *c, int32_t transA, int32_t transB) {
  gemm(kind, 3, a->aligned, a->offset, a->sizes, a->strides, b->aligned,
       b->offset, b->sizes, b->strides, c->aligned, c->offset, c->sizes,
       c->strides, transA, transB);
}

} // namespace

extern "C" {

void _mlir_ciface_ckpt_cuda_gemm_f32(CkptMemRef2D *a, CkptMemRef2D *b,
                                     CkptMemRef2D *c, int32_t transA,
                                     int32_t transB) {
  gemm2D(kF32, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_gemm_tf32(CkptMemRef2D *a, CkptMemRef2D *b,
                                      CkptMemRef2D *c, int32_t transA,
                                      int32_t transB) {
  gemm2D(kTF32, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_gemm_bf16_f32(CkptMemRef2D *a, CkptMemRef2D *b,
                                          CkptMemRef2D *c, int32_t transA,
                                          int32_t transB) {
  gemm2D(kBF16F32, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_gemm_bf16(CkptMemRef2D *a, CkptMemRef2D *b,
                                      CkptMemRef2D *c, int32_t transA,
                                      int32_t transB) {
  gemm2D(kBF16, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_batch_gemm_f32(CkptMemRef3D *a, CkptMemRef3D *b,
                                           CkptMemRef3D *c, int32_t transA,
                                           int32_t transB) {
  gemm3D(kF32, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_batch_gemm_tf32(CkptMemRef3D *a, CkptMemRef3D *b,
                                            CkptMemRef3D *c, int32_t transA,
                                            int32_t transB) {
  gemm3D(kTF32, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_batch_gemm_bf16_f32(CkptMemRef3D *a,
                                                CkptMemRef3D *b,
                                                CkptMemRef3D *c, int32_t transA,
                                                int32_t transB) {
  gemm3D(kBF16F32, a, b, c, transA, transB);
}
void _mlir_ciface_ckpt_cuda_batch_gemm_bf16(CkptMemRef3D *a, CkptMemRef3D *b,
                                            CkptMemRef3D *c, int32_t transA,
                                            int32_t transB) {
  gemm3D(kBF16, a, b, c, transA, transB);
}

} // extern "C"
