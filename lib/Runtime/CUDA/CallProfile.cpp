//===- CallProfile.cpp - where a CUDA step's host time goes ---------------===//
//
// With CKPT_CUDA_PROFILE set, the runtime times its entry points by kind
// and prints, at exit, one line per kind to standard error:
//   ckpt-cuda-profile: <kind> calls=<n> total_ms=<t> mean_us=<t/n>
// and the most device memory held (ckpt_cuda_held_peak_bytes), then the
// kernels that took longest:
//   ckpt-cuda-profile: kernel <name> calls=<n> total_ms=<t> mean_us=<t/n>
//     grid=<x>x<y>x<z> block=<x>x<y>x<z>
// (one line each). While profiling, each launch waits for its kernel, so
// kernels are timed one by one, `launch` is the time the kernels ran and
// the other kinds are host overhead. `ckpt-opt --mlir-print-debuginfo` on
// the lowered module names the source op of each
// `gpu.launch_func @..::@<name>`.
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include "ckpt/Runtime/CkptCudaRuntime.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kKinds = static_cast<int>(ckpt::cuda::CallKind::Count);

/// The profile's name of each CallKind, in the enum's order.
constexpr const char *kKindNames[] = {
    "launch", "stream-sync", "stream-create-destroy", "alloc",
    "free",   "cublas-gemm", "memcpy-memset"};
static_assert(std::size(kKindNames) == kKinds, "a name for every CallKind");

std::atomic<int64_t> calls[kKinds];
std::atomic<int64_t> nanoseconds[kKinds];

/// Time spent in each kernel (by function handle).
struct KernelTime {
  std::string name;
  int64_t calls = 0;
  int64_t nanoseconds = 0;
  int64_t grid[3] = {0, 0, 0};
  int64_t block[3] = {0, 0, 0};
};

std::mutex kernelMutex;
std::unordered_map<CUfunction, KernelTime> &getKernelTimes() {
  // Never destroyed: read by the printer below at exit.
  static auto *times = new std::unordered_map<CUfunction, KernelTime>();
  return *times;
}

/// How many kernels the exit report lists.
constexpr size_t kListedKernels = 25;

/// Prints the profile at exit (a static object's destructor: no CUDA call).
struct ProfilePrinter {
  ~ProfilePrinter() {
    if (!ckpt::cuda::profiling())
      return;
    for (int i = 0; i < kKinds; ++i) {
      int64_t n = calls[i].load();
      if (n == 0)
        continue;
      double totalMs = static_cast<double>(nanoseconds[i].load()) / 1e6;
      std::fprintf(stderr,
                   "ckpt-cuda-profile: %s calls=%lld total_ms=%.3f "
                   "mean_us=%.2f\n",
                   kKindNames[i], static_cast<long long>(n), totalMs,
                   totalMs * 1e3 / n);
    }
    std::fprintf(stderr, "ckpt-cuda-profile: held_peak_bytes=%lld\n",
                 static_cast<long long>(ckpt_cuda_held_peak_bytes()));
    std::vector<KernelTime> kernels;
    {
      std::lock_guard<std::mutex> lock(kernelMutex);
      for (auto &entry : getKernelTimes())
        kernels.push_back(entry.second);
    }
    std::sort(kernels.begin(), kernels.end(),
              [](const KernelTime &a, const KernelTime &b) {
                return a.nanoseconds > b.nanoseconds;
              });
    if (kernels.size() > kListedKernels)
      kernels.resize(kListedKernels);
    for (const KernelTime &kernel : kernels) {
      double totalMs = static_cast<double>(kernel.nanoseconds) / 1e6;
      std::fprintf(stderr,
                   "ckpt-cuda-profile: kernel %s calls=%lld total_ms=%.3f "
                   "mean_us=%.2f grid=%lldx%lldx%lld block=%lldx%lldx%lld\n",
                   kernel.name.c_str(), static_cast<long long>(kernel.calls),
                   totalMs, totalMs * 1e3 / kernel.calls,
                   static_cast<long long>(kernel.grid[0]),
                   static_cast<long long>(kernel.grid[1]),
                   static_cast<long long>(kernel.grid[2]),
                   static_cast<long long>(kernel.block[0]),
                   static_cast<long long>(kernel.block[1]),
                   static_cast<long long>(kernel.block[2]));
    }
  }
};
ProfilePrinter printer;

} // namespace

bool ckpt::cuda::profiling() {
  static const bool enabled = std::getenv("CKPT_CUDA_PROFILE") != nullptr;
  return enabled;
}

void ckpt::cuda::recordCall(CallKind kind, int64_t elapsedNanoseconds) {
  calls[static_cast<int>(kind)].fetch_add(1, std::memory_order_relaxed);
  nanoseconds[static_cast<int>(kind)].fetch_add(elapsedNanoseconds,
                                                std::memory_order_relaxed);
}

void ckpt::cuda::recordKernel(CUfunction function, const int64_t grid[3],
                              const int64_t block[3],
                              int64_t elapsedNanoseconds) {
  std::lock_guard<std::mutex> lock(kernelMutex);
  KernelTime &kernel = getKernelTimes()[function];
  if (kernel.calls == 0) {
    // cuFuncGetName is new in CUDA 12.3: looked up, not linked, so that
    // builds still load with older drivers (and the tests' fake driver).
    using GetName = CUresult (*)(const char **, CUfunction);
    static auto getName =
        reinterpret_cast<GetName>(dlsym(RTLD_DEFAULT, "cuFuncGetName"));
    const char *name = nullptr;
    kernel.name = getName && getName(&name, function) == CUDA_SUCCESS && name
                      ? name
                      : "<unnamed>";
    std::copy(grid, grid + 3, kernel.grid);
    std::copy(block, block + 3, kernel.block);
  }
  ++kernel.calls;
  kernel.nanoseconds += elapsedNanoseconds;
}
