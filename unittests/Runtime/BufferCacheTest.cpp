//===- BufferCacheTest.cpp - freed buffers kept under the high-water mark -===//

#include "BufferCache.h"
#include "ckpt/Runtime/CkptRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>

namespace {

using ckpt::runtime::BufferCache;

constexpr size_t kBig = BufferCache::kMinBytes;

TEST(BufferCache, HandsBackAFreedBufferOfTheSameSize) {
  BufferCache cache(/*enabled=*/true);
  void *first = cache.allocate(kBig, /*liveBytes=*/0);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % BufferCache::kAlignment, 0u);
  cache.release(first, kBig);
  EXPECT_EQ(cache.getCachedBytes(), static_cast<int64_t>(kBig));
  void *again = cache.allocate(kBig, 0);
  EXPECT_EQ(again, first);
  EXPECT_EQ(cache.getHits(), 1);
  EXPECT_EQ(cache.getCachedBytes(), 0);
  // Another size is not served from it.
  cache.release(again, kBig);
  void *other = cache.allocate(2 * kBig, 0);
  EXPECT_NE(other, again);
  cache.release(other, 2 * kBig);
  cache.clear();
  EXPECT_EQ(cache.getCachedBytes(), 0);
}

TEST(BufferCache, LiveAndCachedStayUnderTheHighWaterMark) {
  BufferCache cache(/*enabled=*/true);
  // Two buffers live at once: the mark is 3 * kBig.
  void *a = cache.allocate(kBig, 0);
  void *b = cache.allocate(2 * kBig, kBig);
  cache.release(a, kBig);
  cache.release(b, 2 * kBig);
  EXPECT_EQ(cache.getCachedBytes(), static_cast<int64_t>(3 * kBig));
  // A new size with nothing live fits beside what is cached only after the
  // largest cached buffer goes: live + cached + new <= 3 * kBig.
  void *c = cache.allocate(kBig + 64, 0);
  EXPECT_EQ(cache.getCachedBytes(), static_cast<int64_t>(kBig));
  // A smaller new buffer fits beside what is left.
  void *e = cache.allocate(kBig / 2, kBig + 64);
  EXPECT_EQ(cache.getCachedBytes(), static_cast<int64_t>(kBig));
  // A new peak raises the mark to the live bytes: nothing stays cached.
  void *d = cache.allocate(4 * kBig, kBig + 64 + kBig / 2);
  EXPECT_EQ(cache.getCachedBytes(), 0);
  cache.release(e, kBig / 2);
  cache.release(c, kBig + 64);
  cache.release(d, 4 * kBig);
  cache.clear();
}

TEST(BufferCache, DisabledKeepsNothing) {
  BufferCache cache(/*enabled=*/false);
  void *a = cache.allocate(kBig, 0);
  cache.release(a, kBig);
  EXPECT_EQ(cache.getCachedBytes(), 0);
  EXPECT_EQ(cache.getHits(), 0);
}

TEST(CkptRuntime, CachesOnlyWhenAskedTo) {
  // CKPT_RUNTIME_CACHE is unset in the test's environment: nothing is kept.
  void *a = _mlir_memref_to_llvm_aligned_alloc(64, 1 << 20);
  _mlir_memref_to_llvm_free(a);
  EXPECT_EQ(ckpt_runtime_cached_bytes(), 0);
}

} // namespace
