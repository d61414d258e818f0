//===- CkptRuntime.cpp - allocation accounting for lowered code -----------===//
//
// Implements the generic memref allocation hooks with live/peak accounting.
// See include/ckpt/Runtime/CkptRuntime.h for how bytes are counted.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/CkptRuntime.h"
#include "ckpt/Runtime/AllocationLedger.h"

#include "BufferCache.h"

#include <cstdlib>
#include <cstring>

namespace {

using ckpt::runtime::AllocationLedger;
using ckpt::runtime::BufferCache;

AllocationLedger &getLedger() {
  // Never destroyed: lowered code may free buffers from other static
  // destructors after this translation unit's would have run.
  static AllocationLedger *ledger = new AllocationLedger("ckpt-runtime");
  return *ledger;
}

BufferCache &getBufferCache() {
  // Never destroyed, like the ledger. Off unless CKPT_RUNTIME_CACHE=1 (see
  // CkptRuntime.h for why).
  static BufferCache *cache = [] {
    const char *setting = std::getenv("CKPT_RUNTIME_CACHE");
    return new BufferCache(setting && std::strcmp(setting, "1") == 0);
  }();
  return *cache;
}

/// A counted buffer of `sizeBytes` aligned to `alignment` (a power of two,
/// at least sizeof(void *)): large ones through the buffer cache.
void *allocate(size_t alignment, size_t sizeBytes) {
  if (!sizeBytes)
    sizeBytes = 1;
  void *ptr = nullptr;
  AllocationLedger &ledger = getLedger();
  if (sizeBytes >= BufferCache::kMinBytes &&
      alignment <= BufferCache::kAlignment)
    ptr = getBufferCache().allocate(sizeBytes, ledger.getLiveBytes());
  else if (posix_memalign(&ptr, alignment, sizeBytes) != 0)
    ptr = nullptr;
  if (ptr)
    ledger.recordAllocation(ptr, sizeBytes);
  return ptr;
}

/// Prints the report at exit when CKPT_RUNTIME_REPORT asks for it.
struct ExitReporter {
  ~ExitReporter() {
    getLedger().printReportAsRequestedBy("CKPT_RUNTIME_REPORT");
  }
};
ExitReporter exitReporter;

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t sizeBytes) {
  return allocate(alignof(std::max_align_t), sizeBytes);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignmentBytes,
                                         size_t sizeBytes) {
  // posix_memalign needs a power of two that is a multiple of sizeof(void *).
  size_t alignment = sizeof(void *);
  while (alignment < alignmentBytes)
    alignment *= 2;
  return allocate(alignment, sizeBytes);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  // A pointer we did not hand out is counted and left alone: freeing memory
  // of another allocator would corrupt it.
  size_t sizeBytes = 0;
  if (!getLedger().recordFree(ptr, &sizeBytes))
    return;
  if (sizeBytes >= BufferCache::kMinBytes)
    getBufferCache().release(ptr, sizeBytes);
  else
    std::free(ptr);
}

int64_t ckpt_runtime_peak_bytes(void) { return getLedger().getPeakBytes(); }
int64_t ckpt_runtime_live_bytes(void) { return getLedger().getLiveBytes(); }
int64_t ckpt_runtime_allocation_count(void) {
  return getLedger().getAllocationCount();
}
int64_t ckpt_runtime_unknown_free_count(void) {
  return getLedger().getUnknownFreeCount();
}
void ckpt_runtime_reset(void) { getLedger().reset(); }
int64_t ckpt_runtime_cached_bytes(void) {
  return getBufferCache().getCachedBytes();
}
void ckpt_runtime_release_cache(void) { getBufferCache().clear(); }
void ckpt_runtime_print_report(void) { getLedger().printReport(stdout); }

} // extern "C"
