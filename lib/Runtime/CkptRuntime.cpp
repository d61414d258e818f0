//===- CkptRuntime.cpp - allocation accounting for lowered code -----------===//
//
// Implements the generic memref allocation hooks with live/peak accounting.
// See include/ckpt/Runtime/CkptRuntime.h for how bytes are counted.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/CkptRuntime.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace {

/// Live allocations and the counters derived from them. One instance per
/// process; guarded by a mutex because lowered code may run on threads.
class AllocationLedger {
public:
  void recordAllocation(void *ptr, size_t sizeBytes) {
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = sizeBytes;
    liveBytes += static_cast<int64_t>(sizeBytes);
    ++allocationCount;
    if (liveBytes > peakBytes)
      peakBytes = liveBytes;
  }

  /// Returns false when `ptr` was not allocated here.
  bool recordFree(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end()) {
      ++unknownFreeCount;
      return false;
    }
    liveBytes -= static_cast<int64_t>(it->second);
    sizes.erase(it);
    return true;
  }

  void reset() {
    std::lock_guard<std::mutex> lock(mutex);
    peakBytes = liveBytes;
    allocationCount = 0;
    unknownFreeCount = 0;
  }

  void printReport(FILE *out) {
    std::lock_guard<std::mutex> lock(mutex);
    std::fprintf(out,
                 "ckpt-runtime: peak_bytes=%" PRId64 " live_bytes=%" PRId64
                 " allocations=%" PRId64 " unknown_frees=%" PRId64 "\n",
                 peakBytes, liveBytes, allocationCount, unknownFreeCount);
    std::fflush(out);
  }

  int64_t getPeakBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return peakBytes;
  }
  int64_t getLiveBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return liveBytes;
  }
  int64_t getAllocationCount() {
    std::lock_guard<std::mutex> lock(mutex);
    return allocationCount;
  }
  int64_t getUnknownFreeCount() {
    std::lock_guard<std::mutex> lock(mutex);
    return unknownFreeCount;
  }

private:
  std::mutex mutex;
  std::unordered_map<void *, size_t> sizes;
  int64_t liveBytes = 0;
  int64_t peakBytes = 0;
  int64_t allocationCount = 0;
  int64_t unknownFreeCount = 0;
};

AllocationLedger &getLedger() {
  // Never destroyed: lowered code may free buffers from other static
  // destructors after this translation unit's would have run.
  static AllocationLedger *ledger = new AllocationLedger();
  return *ledger;
}

/// Prints the report at exit when CKPT_RUNTIME_REPORT asks for it.
struct ExitReporter {
  ~ExitReporter() {
    const char *where = std::getenv("CKPT_RUNTIME_REPORT");
    if (!where || !*where)
      return;
    if (!std::strcmp(where, "stdout") || !std::strcmp(where, "1")) {
      getLedger().printReport(stdout);
    } else if (!std::strcmp(where, "stderr")) {
      getLedger().printReport(stderr);
    } else if (FILE *file = std::fopen(where, "a")) {
      getLedger().printReport(file);
      std::fclose(file);
    } else {
      std::fprintf(stderr, "ckpt-runtime: cannot open report file '%s'\n",
                   where);
    }
  }
};
ExitReporter exitReporter;

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t sizeBytes) {
  void *ptr = std::malloc(sizeBytes ? sizeBytes : 1);
  if (ptr)
    getLedger().recordAllocation(ptr, sizeBytes);
  return ptr;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignmentBytes,
                                         size_t sizeBytes) {
  // posix_memalign needs a power of two that is a multiple of sizeof(void *).
  size_t alignment = sizeof(void *);
  while (alignment < alignmentBytes)
    alignment *= 2;
  void *ptr = nullptr;
  if (posix_memalign(&ptr, alignment, sizeBytes ? sizeBytes : 1) != 0)
    return nullptr;
  getLedger().recordAllocation(ptr, sizeBytes);
  return ptr;
}

void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  // A pointer we did not hand out is counted and left alone: freeing memory
  // of another allocator would corrupt it.
  if (getLedger().recordFree(ptr))
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
void ckpt_runtime_print_report(void) { getLedger().printReport(stdout); }

} // extern "C"
