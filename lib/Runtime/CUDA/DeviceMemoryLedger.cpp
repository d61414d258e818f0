//===- DeviceMemoryLedger.cpp - device bytes live and peak ----------------===//
//
// Counts the device memory the compiled program allocates through
// mgpuMemAlloc/mgpuMemFree, and implements the ckpt_cuda_* query functions
// and the exit report (see include/ckpt/Runtime/CkptCudaRuntime.h).
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include "ckpt/Runtime/AllocationLedger.h"
#include "ckpt/Runtime/CkptCudaRuntime.h"

namespace {

using ckpt::runtime::AllocationLedger;

AllocationLedger &getLedger() {
  // Never destroyed: module destructors free memory after static
  // destructors of this translation unit may have run.
  static AllocationLedger *ledger = new AllocationLedger("ckpt-cuda-runtime");
  return *ledger;
}

/// Prints the report at exit when CKPT_CUDA_RUNTIME_REPORT asks for it.
struct ExitReporter {
  ~ExitReporter() {
    getLedger().printReportAsRequestedBy("CKPT_CUDA_RUNTIME_REPORT");
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
