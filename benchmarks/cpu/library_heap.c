/* library_heap.c - heap bytes the GEMM libraries allocate on their own.
 *
 * Preloaded (LD_PRELOAD) by library_workspace.py: counts every malloc,
 * calloc, realloc, posix_memalign, aligned_alloc and memalign whose caller
 * is in a shared object whose path contains one of the names in
 * CKPT_HEAP_LIBRARIES (comma-separated, e.g. "libdnnl,libopenblas"), and
 * keeps the live and peak bytes of those. library_heap_reset() starts a new
 * peak; library_heap_peak() (the most bytes live above those live at the
 * reset) and library_heap_calls() read it. The ckpt
 * runtime's own allocations come from the step's library, not from these,
 * and are not counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);

static long live_bytes, peak_bytes, base_bytes, counted_calls;
static __thread int inside; /* dladdr and dlsym may allocate */

/* The pointers counted, with their sizes: open addressing, no removal
 * (a freed slot keeps its key with size 0). */
#define SLOTS (1 << 20)
static void *slot_key[SLOTS];
static size_t slot_size[SLOTS];

static size_t slot_of(void *p) {
  uintptr_t h = (uintptr_t)p >> 4;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  size_t i = (size_t)(h >> 40) & (SLOTS - 1);
  while (slot_key[i] && slot_key[i] != p)
    i = (i + 1) & (SLOTS - 1);
  return i;
}

static void init(void) {
  if (real_malloc)
    return;
  inside = 1;
  real_malloc = dlsym(RTLD_NEXT, "malloc");
  real_calloc = dlsym(RTLD_NEXT, "calloc");
  real_realloc = dlsym(RTLD_NEXT, "realloc");
  real_free = dlsym(RTLD_NEXT, "free");
  real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
  real_memalign = dlsym(RTLD_NEXT, "memalign");
  inside = 0;
}

/* Whether the code at `caller` belongs to one of the named libraries. */
static int counted_caller(void *caller) {
  const char *names = getenv("CKPT_HEAP_LIBRARIES");
  Dl_info info;
  if (!names || inside)
    return 0;
  inside = 1;
  int found = dladdr(caller, &info) && info.dli_fname;
  inside = 0;
  if (!found)
    return 0;
  char list[256];
  strncpy(list, names, sizeof(list) - 1);
  list[sizeof(list) - 1] = 0;
  for (char *name = strtok(list, ","); name; name = strtok(NULL, ","))
    if (*name && strstr(info.dli_fname, name))
      return 1;
  return 0;
}

static void track(void *p, void *caller) {
  if (!p || !counted_caller(caller))
    return;
  size_t i = slot_of(p);
  slot_key[i] = p;
  slot_size[i] = malloc_usable_size(p);
  live_bytes += (long)slot_size[i];
  counted_calls += 1;
  if (live_bytes > peak_bytes)
    peak_bytes = live_bytes;
}

static void untrack(void *p) {
  if (!p)
    return;
  size_t i = slot_of(p);
  if (slot_key[i] == p) {
    live_bytes -= (long)slot_size[i];
    slot_size[i] = 0;
  }
}

void *malloc(size_t n) {
  init();
  void *p = real_malloc(n);
  track(p, __builtin_return_address(0));
  return p;
}

/* dlsym allocates through calloc before real_calloc is known. */
static char early[4096];
static size_t early_used;

void *calloc(size_t count, size_t n) {
  if (!real_calloc) {
    if (inside && early_used + count * n <= sizeof(early)) {
      void *p = early + early_used;
      early_used += (count * n + 15) & ~(size_t)15;
      return p;
    }
    init();
  }
  void *p = real_calloc(count, n);
  track(p, __builtin_return_address(0));
  return p;
}

void *realloc(void *old, size_t n) {
  init();
  untrack(old);
  void *p = real_realloc(old, n);
  track(p, __builtin_return_address(0));
  return p;
}

void free(void *p) {
  if ((char *)p >= early && (char *)p < early + sizeof(early))
    return;
  init();
  untrack(p);
  real_free(p);
}

int posix_memalign(void **out, size_t alignment, size_t n) {
  init();
  int status = real_posix_memalign(out, alignment, n);
  if (status == 0)
    track(*out, __builtin_return_address(0));
  return status;
}

void *aligned_alloc(size_t alignment, size_t n) {
  init();
  void *p = real_aligned_alloc(alignment, n);
  track(p, __builtin_return_address(0));
  return p;
}

void *memalign(size_t alignment, size_t n) {
  init();
  void *p = real_memalign(alignment, n);
  track(p, __builtin_return_address(0));
  return p;
}

void library_heap_reset(void) {
  base_bytes = peak_bytes = live_bytes;
  counted_calls = 0;
}
long library_heap_peak(void) { return peak_bytes - base_bytes; }
long library_heap_live(void) { return live_bytes; }
long library_heap_calls(void) { return counted_calls; }
