//===- BlasGemm.cpp - libckpt_blas_runtime: GEMMs over oneDNN and CBLAS ---===//
//
// The GEMMs `ckpt-gemm-to-blas` calls (CkptBlasRuntime.h): C += op(A) op(B)
// on row-major memrefs with unit innermost strides. f32 GEMMs run on oneDNN's
// dnnl_sgemm where the runtime was built with oneDNN (its kernels dispatch
// on the CPU's vector ISA, AVX-512 included), unless CKPT_SGEMM=openblas
// asks for OpenBLAS; f64 GEMMs, which oneDNN does not have, on OpenBLAS.
//
// Threads: each call runs on the build's thread count (its last argument),
// on the same OpenMP (libomp) team as the build's parallel loops. The
// runtime splits the work itself: batch entries, else blocks of rows or
// columns of C, each computed by one single-threaded library call. The
// libraries' own thread pools stay unused: oneDNN's would be a second
// OpenMP runtime (Debian's oneDNN threads with libgomp, the one PyTorch
// also loads) and OpenBLAS's a third pool, and teams that spin-wait for
// work take the cores from each other. A given thread count splits every
// GEMM the same way, so it gives the same bits every run
// (benchmarks/cpu/blas_threads_check.py compares counts against float64).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/CkptBlasRuntime.h"

#include <cblas.h>
#ifdef CKPT_BLAS_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <dlfcn.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// OpenBLAS's thread control; absent (null) under another CBLAS.
extern "C" void openblas_set_num_threads(int) __attribute__((weak));

namespace {

[[noreturn]] void fail(const char *message) {
  std::fprintf(stderr, "ckpt-blas-runtime: error: %s\n", message);
  std::abort();
}

/// Work (m * n * k) below which a GEMM is not split: the team would cost
/// more than it saves.
constexpr int64_t kMinSplitWork = int64_t(1) << 18;

/// Rows or columns of C per block are a multiple of this (the libraries'
/// kernels work on such panels).
constexpr int64_t kBlockMultiple = 16;

/// Makes OpenBLAS single-threaded once: the runtime runs it on its own team.
void makeOpenBlasSequential() {
  static const bool done = [] {
    if (openblas_set_num_threads)
      openblas_set_num_threads(1);
    return true;
  }();
  (void)done;
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

/// The thread-count functions of one OpenMP runtime.
struct OpenMPThreadCount {
  int (*getMaxThreads)() = nullptr;
  void (*setNumThreads)(int) = nullptr;
  /// Whether the count is set back after each call. Not for libomp: it
  /// releases threads of its team when the calling thread's count drops
  /// below the team's size, so that setting it back re-formed the team at
  /// the next parallel loop (a two-thread ResNet step took 1.3-2x as long).
  /// Nothing reads libomp's count of the caller: the step's parallel loops
  /// and the GEMM splits name their thread count (num_threads).
  bool restore = true;
};

/// The OpenMP runtimes oneDNN's parallel regions may run on. Debian's
/// oneDNN is linked against libgomp.so.1, but the dynamic linker binds its
/// GOMP_parallel and omp_get_max_threads to the first runtime in the lookup
/// scope that defines them, and LLVM's libomp defines GOMP's entry points
/// too: in a build that links libomp ahead of oneDNN (every build, since the
/// runtime's own loops use it), oneDNN's regions run on libomp's team. So the
/// count is set in both: this runtime's own OpenMP (libomp, called directly)
/// and libgomp.so.1 where the process loaded it (PyTorch's copy included).
const std::vector<OpenMPThreadCount> &dnnlOpenMPRuntimes() {
  static const std::vector<OpenMPThreadCount> runtimes = [] {
    std::vector<OpenMPThreadCount> found;
#ifdef _OPENMP
    found.push_back({&omp_get_max_threads, &omp_set_num_threads,
                     /*restore=*/false});
#endif
    if (void *gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
      OpenMPThreadCount gnu;
      gnu.getMaxThreads =
          reinterpret_cast<int (*)()>(dlsym(gomp, "omp_get_max_threads"));
      gnu.setNumThreads =
          reinterpret_cast<void (*)(int)>(dlsym(gomp, "omp_set_num_threads"));
      // Where libgomp's names resolve to libomp's functions (or are
      // missing), there is nothing more to set.
      bool same =
          !found.empty() && gnu.setNumThreads == found.front().setNumThreads;
      if (gnu.getMaxThreads && gnu.setNumThreads && !same)
        found.push_back(gnu);
    }
    return found;
  }();
  return runtimes;
}

/// Keeps oneDNN to the calling thread while it lives: the thread's count in
/// each OpenMP runtime oneDNN may use is 1, then (libgomp, whose count
/// PyTorch's own loops read) what it was; OpenMP keeps the count per thread.
class DnnlOnThisThread {
public:
  DnnlOnThisThread() {
    const std::vector<OpenMPThreadCount> &runtimes = dnnlOpenMPRuntimes();
    for (size_t index = 0; index < runtimes.size(); ++index) {
      int count = runtimes[index].getMaxThreads();
      if (count == 1)
        continue;
      runtimes[index].setNumThreads(1);
      if (runtimes[index].restore)
        saved[index] = count;
    }
  }
  ~DnnlOnThisThread() {
    const std::vector<OpenMPThreadCount> &runtimes = dnnlOpenMPRuntimes();
    for (size_t index = 0; index < runtimes.size(); ++index)
      if (saved[index] != 1)
        runtimes[index].setNumThreads(saved[index]);
  }
  DnnlOnThisThread(const DnnlOnThisThread &) = delete;
  DnnlOnThisThread &operator=(const DnnlOnThisThread &) = delete;

private:
  /// Each runtime's count to set back, 1 for none (at most libomp and
  /// libgomp).
  int saved[2] = {1, 1};
};
#endif

// linalg semantics: the product accumulates into C (beta = 1).
void call(float *a, float *b, float *c, bool transA, bool transB, int64_t m,
          int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
#ifdef CKPT_BLAS_HAVE_DNNL
  if (sgemmOnDnnl()) {
    DnnlOnThisThread sequential;
    // Row-major, as cblas_sgemm with CblasRowMajor.
    if (dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0f, a,
                   lda, b, ldb, 1.0f, c, ldc) != dnnl_success)
      fail("dnnl_sgemm failed");
    return;
  }
#endif
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb,
              1.0f, c, ldc);
}

void call(double *a, double *b, double *c, bool transA, bool transB, int64_t m,
          int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb,
              1.0, c, ldc);
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

/// One matrix product C += op(A) op(B), with its shape.
template <typename T> struct Product {
  Operand<T> a, b, c;
  bool transA, transB;
  int64_t m, n, k;

  /// Rows [begin, end) of C: the matching rows of op(A).
  Product rows(int64_t begin, int64_t end) const {
    Product part = *this;
    part.c.data += begin * c.leadingDim;
    part.a.data += transA ? begin : begin * a.leadingDim;
    part.m = end - begin;
    return part;
  }

  /// Columns [begin, end) of C: the matching columns of op(B).
  Product columns(int64_t begin, int64_t end) const {
    Product part = *this;
    part.c.data += begin;
    part.b.data += transB ? begin * b.leadingDim : begin;
    part.n = end - begin;
    return part;
  }

  void run() const {
    if (m > 0 && n > 0)
      call(a.data, b.data, c.data, transA, transB, m, n, k, a.leadingDim,
           b.leadingDim, c.leadingDim);
  }
};

/// Block `index` of `count` of [0, size), in multiples of kBlockMultiple.
std::pair<int64_t, int64_t> block(int64_t size, int64_t count, int64_t index) {
  int64_t panels = (size + kBlockMultiple - 1) / kBlockMultiple;
  int64_t begin = panels * index / count * kBlockMultiple;
  int64_t end = panels * (index + 1) / count * kBlockMultiple;
  return {std::min(begin, size), std::min(end, size)};
}

/// C[batch][m][n] += op(A) op(B) with the shapes taken from the descriptors,
/// on `threads` threads.
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
  makeOpenBlasSequential();
  auto product = [&](int64_t entry) {
    return Product<T>{
        describe<T>(a->aligned, a->offset, a->sizes, a->strides, rank, entry),
        describe<T>(b->aligned, b->offset, b->sizes, b->strides, rank, entry),
        describe<T>(c->aligned, c->offset, c->sizes, c->strides, rank, entry),
        transA != 0,
        transB != 0,
        m,
        n,
        k};
  };
  // The split: batch entries where there are enough, else blocks of the
  // longer of C's two sides, per entry.
  int64_t work = m * n * k;
  int64_t side = std::max(m, n);
  int64_t blocks =
      std::min<int64_t>(threads, (side + kBlockMultiple - 1) / kBlockMultiple);
  bool splitBatch = batch >= threads;
  if (threads == 1 || work * batch < kMinSplitWork ||
      (!splitBatch && blocks < 2)) {
    for (int64_t entry = 0; entry < batch; ++entry)
      product(entry).run();
    return;
  }
  if (splitBatch) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t entry = 0; entry < batch; ++entry)
      product(entry).run();
    return;
  }
  for (int64_t entry = 0; entry < batch; ++entry) {
    Product<T> whole = product(entry);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t index = 0; index < blocks; ++index) {
      auto [begin, end] = block(side, blocks, index);
      if (m >= n)
        whole.rows(begin, end).run();
      else
        whole.columns(begin, end).run();
    }
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
