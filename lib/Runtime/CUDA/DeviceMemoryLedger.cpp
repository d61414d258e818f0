//===- DeviceMemoryLedger.cpp - device bytes live and peak ----------------===//
//
// Counts the device memory the compiled program allocates through
// mgpuMemAlloc/mgpuMemFree, and implements the ckpt_cuda_* query functions
// and the exit report (see include/ckpt/Runtime/CkptCudaRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include "ckpt/Runtime/CkptCudaRuntime.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace {

/// Live device allocations and the counters derived from them.
class DeviceMemoryLedger {
public:
  void recordAllocation(void *ptr, size_t sizeBytes) {
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = sizeBytes;
    liveBytes += static_cast<int64_t>(sizeBytes);
    ++allocationCount;
    if (liveBytes > peakBytes)
      peakBytes = liveBytes;
  }

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
                 "ckpt-cuda-runtime: peak_bytes=%" PRId64 " live_bytes=%" PRId64
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

DeviceMemoryLedger &getLedger() {
  // Never destroyed: module destructors free memory after static
  // destructors of this translation unit may have run.
  static DeviceMemoryLedger *ledger = new DeviceMemoryLedger();
  return *ledger;
}

/// Prints the report at exit when CKPT_CUDA_RUNTIME_REPORT asks for it.
struct ExitReporter {
  ~ExitReporter() {
    const char *where = std::getenv("CKPT_CUDA_RUNTIME_REPORT");
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
      std::fprintf(stderr, "ckpt-cuda-runtime: cannot open report file '%s'\n",
                   where);
    }
  }
};
ExitReporter exitReporter;

} // namespace

void ckpt::cuda::recordAllocation(void *ptr, size_t sizeBytes) {
  getLedger().recordAllocation(ptr, sizeBytes);
}

bool ckpt::cuda::recordFree(void *ptr) { return getLedger().recordFree(ptr); }

extern "C" {

int64_t ckpt_cuda_peak_bytes(void) { return getLedger().getPeakBytes(); }
int64_t ckpt_cuda_live_bytes(void) { return getLedger().getLiveBytes(); }
int64_t ckpt_cuda_allocation_count(void) {
  return getLedger().getAllocationCount();
}
int64_t ckpt_cuda_unknown_free_count(void) {
  return getLedger().getUnknownFreeCount();
}
void ckpt_cuda_reset(void) { getLedger().reset(); }
void ckpt_cuda_print_report(void) { getLedger().printReport(stdout); }

} // extern "C"
