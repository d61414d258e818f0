/* A stand-in for cuBLAS (libcublas.so.13) for tests of the host side of
 * CUDA builds on machines without a GPU (see fake-cuda-driver.c): handles
 * and streams are accepted, GEMMs check their arguments and are counted
 * but compute nothing. FAKE_CUDA_REPORT prints
 *   fake-cublas: gemms=G
 * at exit. */
#include <cublas_v2.h>

#include <stdio.h>
#include <stdlib.h>

static long gemms;
static int fakeHandle;

static void report(void) {
  if (getenv("FAKE_CUDA_REPORT"))
    fprintf(stderr, "fake-cublas: gemms=%ld\n", gemms);
}

cublasStatus_t CUBLASWINAPI cublasCreate(cublasHandle_t *handle) {
  atexit(report);
  *handle = (cublasHandle_t)&fakeHandle;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t CUBLASWINAPI cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  (void)stream;
  return handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}
const char *CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
  return status == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_FAKE_ERROR";
}
cublasStatus_t CUBLASWINAPI cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void *alpha, const void *A, cudaDataType Atype, int lda, long long int strideA,
    const void *B, cudaDataType Btype, int ldb, long long int strideB, const void *beta, void *C,
    cudaDataType Ctype, int ldc, long long int strideC, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  (void)transa, (void)transb, (void)alpha, (void)Atype, (void)strideA, (void)Btype,
      (void)strideB, (void)beta, (void)Ctype, (void)strideC, (void)computeType, (void)algo;
  if (!handle)
    return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || k < 0 || batchCount < 1 || !A || !B || !C || lda < 1 || ldb < 1 ||
      ldc < (m > 1 ? m : 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  ++gemms;
  return CUBLAS_STATUS_SUCCESS;
}
