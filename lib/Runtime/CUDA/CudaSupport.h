//===- CudaSupport.h - shared pieces of the ckpt CUDA runtime ---*- C++ -*-===//
//
// Internal to libckpt_cuda_runtime: error reporting, the CUDA context every
// entry point runs in, and the device-memory ledger.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_RUNTIME_CUDA_CUDASUPPORT_H
#define CKPT_LIB_RUNTIME_CUDA_CUDASUPPORT_H

#include <cuda.h>

#include <chrono>
#include <cstddef>
#include <cstdint>

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

/// For the entry points that release something (modules, streams, events,
/// memory, host registrations): makes the context current like
/// ensureContext and returns true, or returns false when the driver has
/// already shut down. The CUDA driver shuts down in an exit handler that it
/// registers at cuInit, which runs before the program's module destructors
/// (those unload the kernels); after that, every driver call fails and the
/// driver has released everything itself, so there is nothing to do.
bool enterContextForRelease();

/// Device memory of `bytes` (managed memory when `managed`) from the pool
/// of freed blocks or the driver (DevicePool.cpp); exits on failure.
CUdeviceptr allocateDevice(size_t bytes, bool managed);

/// Returns memory from allocateDevice to the pool (managed memory goes back
/// to the driver). Pointers the pool did not hand out are ignored.
void freeDevice(CUdeviceptr ptr);

/// Returns every cached block and stream to the driver; from then on the
/// pool caches nothing. Registered with atexit right after cuInit, so it
/// runs before the driver's own exit handler.
void drainPool();

/// A stream from the pool of finished streams, or a new non-blocking one.
CUstream acquireStream();

/// Waits for `stream` and puts it back into the pool.
void releaseStream(CUstream stream);

/// Records a device allocation of `sizeBytes` at `ptr`.
void recordAllocation(void *ptr, size_t sizeBytes);

/// Records the release of `ptr`; returns false (and counts an unknown free)
/// when the runtime did not allocate it.
bool recordFree(void *ptr);

/// What the profile (CallProfile.cpp, CKPT_CUDA_PROFILE) sorts calls by.
enum class CallKind {
  Launch,
  StreamSync,
  Stream,
  Alloc,
  Free,
  Gemm,
  Copy,
  Count
};

/// Whether CKPT_CUDA_PROFILE is set.
bool profiling();

/// Adds one call of `kind` that took `elapsedNanoseconds` to the profile.
void recordCall(CallKind kind, int64_t elapsedNanoseconds);

/// Adds one run of `function` (launched on `grid` x `block`) that took
/// `elapsedNanoseconds` to the profile's kernel list.
void recordKernel(CUfunction function, const int64_t grid[3],
                  const int64_t block[3], int64_t elapsedNanoseconds);

/// Times the enclosing scope as one call of `kind` when profiling.
class ProfiledCall {
public:
  explicit ProfiledCall(CallKind kind) : kind(kind), enabled(profiling()) {
    if (enabled)
      start = std::chrono::steady_clock::now();
  }
  ~ProfiledCall() {
    if (enabled)
      recordCall(kind, std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now() - start)
                           .count());
  }
  ProfiledCall(const ProfiledCall &) = delete;
  ProfiledCall &operator=(const ProfiledCall &) = delete;

private:
  CallKind kind;
  bool enabled;
  std::chrono::steady_clock::time_point start;
};

} // namespace ckpt::cuda

#endif // CKPT_LIB_RUNTIME_CUDA_CUDASUPPORT_H
