//===- CudaSupport.h - shared pieces of the ckpt CUDA runtime ---*- C++ -*-===//
//
// Internal to libckpt_cuda_runtime: error reporting, the CUDA context every
// entry point runs in, and the device-memory ledger.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_RUNTIME_CUDA_CUDASUPPORT_H
#define CKPT_LIB_RUNTIME_CUDA_CUDASUPPORT_H

#include <cuda.h>

#include <cstddef>

namespace ckpt::cuda {

/// Prints `ckpt-cuda-runtime: error: <what> failed: <error name>` and exits
/// with status 1 when `result` is not CUDA_SUCCESS. A failed driver call
/// leaves the device in an unknown state, so the program stops rather than
/// computing on garbage.
void check(CUresult result, const char *what);

/// Prints `ckpt-cuda-runtime: error: <message>` and exits with status 1.
[[noreturn]] void fail(const char *message);

/// Initializes the driver on first use (cuInit, device 0, its primary
/// context) and makes that context current on the calling thread. When the
/// driver or the GPU is missing, prints a clear message and exits with
/// status 1 instead of crashing in a later call.
void ensureContext();

/// Records a device allocation of `sizeBytes` at `ptr`.
void recordAllocation(void *ptr, size_t sizeBytes);

/// Records the release of `ptr`; returns false (and counts an unknown free)
/// when the runtime did not allocate it.
bool recordFree(void *ptr);

} // namespace ckpt::cuda

#endif // CKPT_LIB_RUNTIME_CUDA_CUDASUPPORT_H
