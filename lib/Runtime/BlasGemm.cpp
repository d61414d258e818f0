//===- BlasGemm.cpp - libckpt_blas_runtime: GEMMs over oneDNN and CBLAS ---===//
//
// The GEMMs `ckpt-gemm-to-blas` calls (CkptBlasRuntime.h): C += op(A) op(B)
// on row-major memrefs with unit innermost strides, one GEMM per matrix (per
// batch entry for the batched forms). f32 GEMMs run on oneDNN's dnnl_sgemm
// where the runtime was built with oneDNN (its kernels dispatch on the CPU's
// vector ISA, AVX-512 included), unless CKPT_SGEMM=openblas asks for
// OpenBLAS; f64 GEMMs, which oneDNN does not have, on OpenBLAS.
//
// Each call runs on the build's thread count (its last argument). The
// libraries' threads partition each GEMM statically, so a given count gives
// the same bits every run; another count sums in another order
// (benchmarks/cpu/blas_threads_check.py compares them against float64).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/CkptBlasRuntime.h"

#include <cblas.h>
#ifdef CKPT_BLAS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

// OpenBLAS's thread control; absent (null) under another CBLAS.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));
// The OpenMP runtime oneDNN threads with (libgomp in Debian's build); absent
// (null) under a sequential oneDNN.
extern "C" int omp_get_max_threads() __attribute__((weak));
extern "C" void omp_set_num_threads(int) __attribute__((weak));

namespace {

/// Sets OpenBLAS's thread count to `threads` where it is another. OpenBLAS
/// has one count for the process; builds of different counts in one
/// process take turns setting it.
void configureOpenBlasThreads(int threads) {
  static std::mutex mutex;
  static int current = 0;
  std::lock_guard<std::mutex> lock(mutex);
  if (openblas_set_num_threads && current != threads) {
    openblas_set_num_threads(threads);
    current = threads;
  }
}

#ifdef CKPT_BLAS_HAVE_DNNL
/// Whether f32 GEMMs run on oneDNN: unless CKPT_SGEMM=openblas.
bool sgemmOnDnnl() {
  static const bool dnnl = [] {
    const char *value = std::getenv("CKPT_SGEMM");
    return !value || std::strcmp(value, "openblas") != 0;
  }();
  return dnnl;
}

/// Runs oneDNN calls on `threads` OpenMP threads, restoring the calling
/// thread's own OpenMP setting afterwards (it is the caller's, not ckpt's).
class DnnlThreads {
public:
  explicit DnnlThreads(int threads) : threads(threads) {
    if (!omp_get_max_threads || !omp_set_num_threads)
      return;
    saved = omp_get_max_threads();
    if (saved != threads)
      omp_set_num_threads(threads);
  }
  ~DnnlThreads() {
    if (saved > 0 && saved != threads)
      omp_set_num_threads(saved);
  }
  DnnlThreads(const DnnlThreads &) = delete;
  DnnlThreads &operator=(const DnnlThreads &) = delete;

private:
  int threads;
  int saved = 0;
};
#endif

[[noreturn]] void fail(const char *message) {
  std::fprintf(stderr, "ckpt-blas-runtime: error: %s\n", message);
  std::abort();
}

/// One operand as CBLAS reads it: its first element and its leading
/// dimension (row stride).
template <typename T> struct Operand {
  T *data;
  int64_t leadingDim;
};

template <typename T>
Operand<T> describe(void *aligned, int64_t offset, const int64_t *sizes,
                    const int64_t *strides, int rank, int64_t batchIndex) {
  if (strides[rank - 1] != 1 && sizes[rank - 1] > 1)
    fail("a GEMM operand has an innermost stride other than 1");
  T *data = static_cast<T *>(aligned) + offset;
  if (rank == 3)
    data += batchIndex * strides[0];
  // A leading dimension of at least the row length, as CBLAS requires of
  // rows of one element too.
  int64_t leadingDim = strides[rank - 2];
  if (leadingDim < sizes[rank - 1])
    leadingDim = sizes[rank - 1] > 0 ? sizes[rank - 1] : 1;
  return {data, leadingDim};
}

// linalg semantics: the product accumulates into C (beta = 1).
void call(float *a, float *b, float *c, bool transA, bool transB, int64_t m,
          int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
          int threads) {
#ifdef CKPT_BLAS_HAVE_DNNL
  if (sgemmOnDnnl()) {
    // Row-major, as cblas_sgemm with CblasRowMajor.
    if (dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0f, a,
                   lda, b, ldb, 1.0f, c, ldc) != dnnl_success)
      fail("dnnl_sgemm failed");
    return;
  }
#endif
  configureOpenBlasThreads(threads);
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb,
              1.0f, c, ldc);
}

void call(double *a, double *b, double *c, bool transA, bool transB, int64_t m,
          int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
          int threads) {
  configureOpenBlasThreads(threads);
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb,
              1.0, c, ldc);
}

/// C[batch][m][n] += op(A) op(B) with the shapes taken from the descriptors.
template <typename T, typename Descriptor>
void gemm(int rank, Descriptor *a, Descriptor *b, Descriptor *c, int32_t transA,
          int32_t transB, int32_t threads) {
  int d = rank - 2; // Index of the first matrix dimension.
  int64_t batch = rank == 3 ? c->sizes[0] : 1;
  int64_t m = c->sizes[d], n = c->sizes[d + 1];
  int64_t k = transA ? a->sizes[d] : a->sizes[d + 1];
  int64_t aM = transA ? a->sizes[d + 1] : a->sizes[d];
  int64_t bK = transB ? b->sizes[d + 1] : b->sizes[d];
  int64_t bN = transB ? b->sizes[d] : b->sizes[d + 1];
  if (aM != m || bN != n || bK != k ||
      (rank == 3 && (a->sizes[0] != batch || b->sizes[0] != batch)))
    fail("GEMM operand shapes do not agree");
  if (threads < 1)
    fail("a GEMM was asked for fewer than one thread");
  if (m == 0 || n == 0 || k == 0)
    return;
#ifdef CKPT_BLAS_HAVE_DNNL
  DnnlThreads dnnlThreads(threads);
#endif
  for (int64_t i = 0; i < batch; ++i) {
    Operand<T> aOp =
        describe<T>(a->aligned, a->offset, a->sizes, a->strides, rank, i);
    Operand<T> bOp =
        describe<T>(b->aligned, b->offset, b->sizes, b->strides, rank, i);
    Operand<T> cOp =
        describe<T>(c->aligned, c->offset, c->sizes, c->strides, rank, i);
    call(aOp.data, bOp.data, cOp.data, transA != 0, transB != 0, m, n, k,
         aOp.leadingDim, bOp.leadingDim, cOp.leadingDim, threads);
  }
}

} // namespace

extern "C" {

void _mlir_ciface_ckpt_cpu_gemm_f32(CkptMemRef2D *a, CkptMemRef2D *b,
                                    CkptMemRef2D *c, int32_t transA,
                                    int32_t transB, int32_t threads) {
  gemm<float>(2, a, b, c, transA, transB, threads);
}

void _mlir_ciface_ckpt_cpu_gemm_f64(CkptMemRef2D *a, CkptMemRef2D *b,
                                    CkptMemRef2D *c, int32_t transA,
                                    int32_t transB, int32_t threads) {
  gemm<double>(2, a, b, c, transA, transB, threads);
}

void _mlir_ciface_ckpt_cpu_batch_gemm_f32(CkptMemRef3D *a, CkptMemRef3D *b,
                                          CkptMemRef3D *c, int32_t transA,
                                          int32_t transB, int32_t threads) {
  gemm<float>(3, a, b, c, transA, transB, threads);
}

void _mlir_ciface_ckpt_cpu_batch_gemm_f64(CkptMemRef3D *a, CkptMemRef3D *b,
                                          CkptMemRef3D *c, int32_t transA,
                                          int32_t transB, int32_t threads) {
  gemm<double>(3, a, b, c, transA, transB, threads);
}

} // extern "C"
