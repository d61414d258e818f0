//===- BufferCache.h - freed step buffers kept for the next step -*- C++ -*-===//
//
// Internal to libckpt_runtime: plain C++, no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_LIB_RUNTIME_BUFFERCACHE_H
#define CKPT_LIB_RUNTIME_BUFFERCACHE_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace ckpt::runtime {

/// Keeps freed buffers for the next allocation of the same size, so that a
/// step run again takes its buffers back instead of asking the kernel for
/// fresh pages (large blocks are mapped and unmapped by the C allocator, and
/// every page of a fresh mapping faults and is zeroed on first touch).
///
/// The cache never holds more than the live bytes' high-water mark leaves
/// free: live + cached <= the most bytes ever live at once, so the memory
/// the runtime holds is the peak it measured, not more. An allocation the
/// cache cannot serve first frees cached buffers, the largest first, until
/// the new buffer fits under that mark (raised only by live bytes).
class BufferCache {
public:
  /// Buffers below this size come from the C allocator's own free lists.
  static constexpr size_t kMinBytes = 64 * 1024;
  /// Every buffer is aligned to this, so any cached buffer of a size serves
  /// any request for it (MLIR asks for at most 64 B).
  static constexpr size_t kAlignment = 64;

  /// A cache that keeps nothing when `enabled` is false.
  explicit BufferCache(bool enabled) : enabled(enabled) {}

  /// A buffer of `bytes` (at least kMinBytes) aligned to kAlignment, or
  /// nullptr when out of memory; `liveBytes` are the bytes live before it.
  void *allocate(size_t bytes, int64_t liveBytes) {
    void *ptr = nullptr;
    if (!enabled)
      return posix_memalign(&ptr, kAlignment, bytes) == 0 ? ptr : nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    auto found = buffers.find(bytes);
    if (found != buffers.end()) {
      void *ptr = found->second.back();
      found->second.pop_back();
      if (found->second.empty())
        buffers.erase(found);
      cachedBytes -= static_cast<int64_t>(bytes);
      ++hits;
      return ptr;
    }
    int64_t needed = liveBytes + static_cast<int64_t>(bytes);
    if (needed > highWaterBytes)
      highWaterBytes = needed;
    while (cachedBytes > highWaterBytes - needed)
      freeLargest();
    if (posix_memalign(&ptr, kAlignment, bytes) != 0)
      return nullptr;
    return ptr;
  }

  /// Takes back `ptr`, a buffer of `bytes` from allocate().
  void release(void *ptr, size_t bytes) {
    if (!enabled) {
      std::free(ptr);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex);
    buffers[bytes].push_back(ptr);
    cachedBytes += static_cast<int64_t>(bytes);
  }

  /// Frees every cached buffer.
  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    while (!buffers.empty())
      freeLargest();
  }

  int64_t getCachedBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return cachedBytes;
  }
  int64_t getHits() {
    std::lock_guard<std::mutex> lock(mutex);
    return hits;
  }

private:
  void freeLargest() {
    auto largest = std::prev(buffers.end());
    std::free(largest->second.back());
    largest->second.pop_back();
    cachedBytes -= static_cast<int64_t>(largest->first);
    if (largest->second.empty())
      buffers.erase(largest);
  }

  const bool enabled;
  std::mutex mutex;
  /// Cached buffers by size.
  std::map<size_t, std::vector<void *>> buffers;
  int64_t cachedBytes = 0;
  int64_t highWaterBytes = 0;
  int64_t hits = 0;
};

} // namespace ckpt::runtime

#endif // CKPT_LIB_RUNTIME_BUFFERCACHE_H
