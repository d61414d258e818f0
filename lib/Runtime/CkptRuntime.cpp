//===- CkptRuntime.cpp - allocation accounting for lowered code -----------===//
//
// Implements the generic memref allocation hooks with live/peak accounting.
// See include/ckpt/Runtime/CkptRuntime.h for how bytes are counted.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Runtime/CkptRuntime.h"
#include "ckpt/Runtime/AllocationLedger.h"

#include <cstdlib>

namespace {

using ckpt::runtime::AllocationLedger;

AllocationLedger &getLedger() {
  // Never destroyed: lowered code may free buffers from other static
  // destructors after this translation unit's would have run.
  static AllocationLedger *ledger = new AllocationLedger("ckpt-runtime");
  return *ledger;
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
