//===- AllocationLedger.h - live and peak bytes of a runtime ----*- C++ -*-===//
//
// Shared by libckpt_runtime (host allocations) and libckpt_cuda_runtime
// (device allocations). Header-only, plain C++: both libraries build without
// LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_RUNTIME_ALLOCATIONLEDGER_H
#define CKPT_RUNTIME_ALLOCATIONLEDGER_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace ckpt::runtime {

/// Live allocations and the counters derived from them; thread-safe because
/// compiled code may allocate from several threads.
class AllocationLedger {
public:
  /// `reportPrefix` starts every report line (e.g. "ckpt-runtime").
  explicit AllocationLedger(const char *reportPrefix)
      : reportPrefix(reportPrefix) {}

  /// Records `sizeBytes` allocated at `ptr`.
  void recordAllocation(void *ptr, size_t sizeBytes) {
    std::lock_guard<std::mutex> lock(mutex);
    sizes[ptr] = sizeBytes;
    liveBytes += static_cast<int64_t>(sizeBytes);
    ++allocationCount;
    if (liveBytes > peakBytes)
      peakBytes = liveBytes;
  }

  /// Records the free of `ptr`; returns false (and counts it) when `ptr` was
  /// not allocated here. Its size goes to `sizeBytes` when given.
  bool recordFree(void *ptr, size_t *sizeBytes = nullptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(ptr);
    if (it == sizes.end()) {
      ++unknownFreeCount;
      return false;
    }
    if (sizeBytes)
      *sizeBytes = it->second;
    liveBytes -= static_cast<int64_t>(it->second);
    sizes.erase(it);
    return true;
  }

  /// Starts a new measurement: the peak becomes the bytes live now.
  void reset() {
    std::lock_guard<std::mutex> lock(mutex);
    peakBytes = liveBytes;
    allocationCount = 0;
    unknownFreeCount = 0;
  }

  /// Prints `<prefix>: peak_bytes=P live_bytes=L allocations=A
  /// unknown_frees=U`.
  void printReport(FILE *out) {
    std::lock_guard<std::mutex> lock(mutex);
    std::fprintf(out,
                 "%s: peak_bytes=%" PRId64 " live_bytes=%" PRId64
                 " allocations=%" PRId64 " unknown_frees=%" PRId64 "\n",
                 reportPrefix, peakBytes, liveBytes, allocationCount,
                 unknownFreeCount);
    std::fflush(out);
  }

  /// Prints the report where the environment variable `variable` says:
  /// `stdout` or `1`, `stderr`, or a file path to append to; nothing when
  /// it is unset or empty.
  void printReportAsRequestedBy(const char *variable) {
    const char *where = std::getenv(variable);
    if (!where || !*where)
      return;
    if (!std::strcmp(where, "stdout") || !std::strcmp(where, "1")) {
      printReport(stdout);
    } else if (!std::strcmp(where, "stderr")) {
      printReport(stderr);
    } else if (FILE *file = std::fopen(where, "a")) {
      printReport(file);
      std::fclose(file);
    } else {
      std::fprintf(stderr, "%s: cannot open report file '%s'\n", reportPrefix,
                   where);
    }
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
  const char *reportPrefix;
  std::mutex mutex;
  std::unordered_map<void *, size_t> sizes;
  int64_t liveBytes = 0;
  int64_t peakBytes = 0;
  int64_t allocationCount = 0;
  int64_t unknownFreeCount = 0;
};

} // namespace ckpt::runtime

#endif // CKPT_RUNTIME_ALLOCATIONLEDGER_H
