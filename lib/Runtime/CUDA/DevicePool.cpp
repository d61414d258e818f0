//===- DevicePool.cpp - cached device memory and streams ------------------===//
//
// cuMemAlloc and cuMemFree cost tens to hundreds of microseconds each (and
// cuMemFree waits for the device), cuStreamCreate/cuStreamDestroy several
// more, and a training step allocates a buffer per intermediate and a stream
// per kernel launch. Like PyTorch's caching allocator, freed device blocks
// are kept for the next allocation of the same size, and finished streams
// for the next launch.
//
// The ledger (DeviceMemoryLedger.cpp) still counts what the program
// allocates and frees, so `peak_bytes` is unchanged; the device memory held
// (live plus cached blocks) is reported separately.
//
// Reuse is safe because ckpt-gpu-pipeline's host code waits for each
// kernel before it goes on (synchronous launches), and mgpuMemFree waits
// for the stream it is given: a freed block has no work pending.
//
// At exit, before the driver shuts down, everything cached goes back to the
// driver (drainPool, registered by CudaContext.cpp right after cuInit).
//
// CKPT_CUDA_CACHING=0 turns both caches off (every allocation and stream
// goes to the driver), to measure what they save.
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace {

/// Blocks are cached by size rounded up to this many bytes (the driver's
/// own allocation granularity for small blocks).
constexpr size_t kBlockRoundingBytes = 512;

size_t roundUp(size_t bytes) {
  return (bytes + kBlockRoundingBytes - 1) / kBlockRoundingBytes *
         kBlockRoundingBytes;
}

bool cachingEnabled() {
  static const bool enabled = [] {
    const char *value = std::getenv("CKPT_CUDA_CACHING");
    return !(value && std::strcmp(value, "0") == 0);
  }();
  return enabled;
}

struct Block {
  size_t bytes; // As allocated from the driver (rounded).
  bool managed; // cuMemAllocManaged: never cached.
};

class DevicePool {
public:
  CUdeviceptr allocate(size_t requested, bool managed) {
    std::lock_guard<std::mutex> lock(mutex);
    size_t bytes =
        managed || !cachingEnabled() ? requested : roundUp(requested);
    if (!managed && cachingEnabled()) {
      auto it = freeBlocks.find(bytes);
      if (it != freeBlocks.end() && !it->second.empty()) {
        CUdeviceptr ptr = it->second.back();
        it->second.pop_back();
        cachedBytes -= bytes;
        live[ptr] = {bytes, managed};
        return ptr;
      }
    }
    CUdeviceptr ptr = 0;
    auto allocateFromDriver = [&] {
      return managed ? cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL)
                     : cuMemAlloc(&ptr, bytes);
    };
    CUresult result = allocateFromDriver();
    if (result == CUDA_ERROR_OUT_OF_MEMORY && cachedBytes > 0) {
      // Cached blocks of other sizes may be what is missing.
      releaseCachedLocked(/*atExit=*/false);
      result = allocateFromDriver();
    }
    ckpt::cuda::check(result, managed ? "cuMemAllocManaged" : "cuMemAlloc");
    live[ptr] = {bytes, managed};
    heldBytes += bytes;
    heldPeakBytes = std::max(heldPeakBytes, heldBytes);
    return ptr;
  }

  void free(CUdeviceptr ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(ptr);
    if (it == live.end())
      return; // The ledger has counted the unknown pointer already.
    Block block = it->second;
    live.erase(it);
    if (block.managed || !cachingEnabled() || drained) {
      heldBytes -= block.bytes;
      ckpt::cuda::check(cuMemFree(ptr), "cuMemFree");
      return;
    }
    freeBlocks[block.bytes].push_back(ptr);
    cachedBytes += block.bytes;
  }

  CUstream acquireStream() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (cachingEnabled() && !idleStreams.empty()) {
        CUstream stream = idleStreams.back();
        idleStreams.pop_back();
        return stream;
      }
    }
    CUstream stream = nullptr;
    ckpt::cuda::check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                      "cuStreamCreate");
    return stream;
  }

  void releaseStream(CUstream stream) {
    if (cachingEnabled() && !isDrained()) {
      // Work queued on it must finish before another launch reuses it in
      // an order the program did not ask for.
      ckpt::cuda::check(cuStreamSynchronize(stream), "cuStreamSynchronize");
      std::lock_guard<std::mutex> lock(mutex);
      idleStreams.push_back(stream);
      return;
    }
    ckpt::cuda::check(cuStreamDestroy(stream), "cuStreamDestroy");
  }

  /// Gives every cached block and idle stream back to the driver; later
  /// frees and stream releases go straight to the driver. Failures are
  /// ignored: this runs at exit.
  void drain() {
    std::lock_guard<std::mutex> lock(mutex);
    drained = true;
    releaseCachedLocked(/*atExit=*/true);
    for (CUstream stream : idleStreams)
      (void)cuStreamDestroy(stream);
    idleStreams.clear();
  }

  int64_t getHeldPeakBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return static_cast<int64_t>(heldPeakBytes);
  }

private:
  bool isDrained() {
    std::lock_guard<std::mutex> lock(mutex);
    return drained;
  }

  /// Frees every cached block (the mutex held); at exit, driver failures
  /// are ignored rather than reported.
  void releaseCachedLocked(bool atExit) {
    for (auto &[bytes, blocks] : freeBlocks) {
      for (CUdeviceptr ptr : blocks) {
        CUresult result = cuMemFree(ptr);
        if (!atExit)
          ckpt::cuda::check(result, "cuMemFree");
      }
      heldBytes -= bytes * blocks.size();
      blocks.clear();
    }
    cachedBytes = 0;
  }

  std::mutex mutex;
  std::unordered_map<CUdeviceptr, Block> live;
  std::unordered_map<size_t, std::vector<CUdeviceptr>> freeBlocks;
  std::vector<CUstream> idleStreams;
  size_t cachedBytes = 0;
  size_t heldBytes = 0;
  bool drained = false;
  size_t heldPeakBytes = 0;
};

DevicePool &getPool() {
  // Never destroyed: module destructors run after static destructors, and
  // the driver releases everything at exit.
  static DevicePool *pool = new DevicePool();
  return *pool;
}

} // namespace

CUdeviceptr ckpt::cuda::allocateDevice(size_t bytes, bool managed) {
  return getPool().allocate(bytes, managed);
}

void ckpt::cuda::freeDevice(CUdeviceptr ptr) { getPool().free(ptr); }

void ckpt::cuda::drainPool() { getPool().drain(); }

CUstream ckpt::cuda::acquireStream() { return getPool().acquireStream(); }

void ckpt::cuda::releaseStream(CUstream stream) {
  getPool().releaseStream(stream);
}

extern "C" int64_t ckpt_cuda_held_peak_bytes(void) {
  return getPool().getHeldPeakBytes();
}
