/* gemm_calls.c - the f32 GEMMs a compiled step makes, by shape.
 *
 * Preloaded (LD_PRELOAD) by gemm_profile.py: wraps oneDNN's dnnl_sgemm
 * (the f32 GEMMs of gemm=blas builds; the BLAS runtime is linked into the
 * step's library and calls it through the dynamic linker), counts the calls
 * and the wall time per (transA, transB, M, N, K), and writes one line per
 * shape to the file CKPT_GEMM_CALLS names when the process exits.
 * gemm_calls_reset() clears the counts (after the warm-up steps).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*sgemm_fn)(char, char, int64_t, int64_t, int64_t, float,
                        const float *, int64_t, const float *, int64_t, float,
                        float *, int64_t);

enum { MAX_SHAPES = 4096 };

static struct {
  char trans_a, trans_b;
  int64_t m, n, k, calls;
  double seconds;
} shapes[MAX_SHAPES];
static int shape_count;
static sgemm_fn real_sgemm;

static void write_counts(void) {
  const char *path = getenv("CKPT_GEMM_CALLS");
  FILE *file = path ? fopen(path, "w") : NULL;
  if (!file)
    return;
  for (int i = 0; i < shape_count; ++i)
    fprintf(file, "%c %c %lld %lld %lld %lld %.9f\n", shapes[i].trans_a,
            shapes[i].trans_b, (long long)shapes[i].m, (long long)shapes[i].n,
            (long long)shapes[i].k, (long long)shapes[i].calls,
            shapes[i].seconds);
  fclose(file);
}

void gemm_calls_reset(void) { shape_count = 0; }

int dnnl_sgemm(char trans_a, char trans_b, int64_t m, int64_t n, int64_t k,
               float alpha, const float *a, int64_t lda, const float *b,
               int64_t ldb, float beta, float *c, int64_t ldc) {
  if (!real_sgemm) {
    /* The step's library is loaded RTLD_LOCAL: look oneDNN up by name. */
    void *dnnl = dlopen("libdnnl.so.2", RTLD_LAZY | RTLD_NOLOAD);
    real_sgemm = (sgemm_fn)dlsym(dnnl ? dnnl : RTLD_NEXT, "dnnl_sgemm");
    if (!real_sgemm)
      abort();
    atexit(write_counts);
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int status = real_sgemm(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb,
                          beta, c, ldc);
  clock_gettime(CLOCK_MONOTONIC, &end);
  double seconds =
      (double)(end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec);
  int i = 0;
  while (i < shape_count &&
         !(shapes[i].trans_a == trans_a && shapes[i].trans_b == trans_b &&
           shapes[i].m == m && shapes[i].n == n && shapes[i].k == k))
    ++i;
  if (i == shape_count) {
    if (shape_count == MAX_SHAPES)
      return status;
    shapes[i].trans_a = trans_a;
    shapes[i].trans_b = trans_b;
    shapes[i].m = m;
    shapes[i].n = n;
    shapes[i].k = k;
    shapes[i].calls = 0;
    shapes[i].seconds = 0;
    ++shape_count;
  }
  shapes[i].calls += 1;
  shapes[i].seconds += seconds;
  return status;
}
