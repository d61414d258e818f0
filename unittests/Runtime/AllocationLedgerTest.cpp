//===- AllocationLedgerTest.cpp - peak/live accounting of the runtime -----===//

#include "ckpt/Runtime/CkptRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>

namespace {

TEST(CkptRuntime, TracksLiveAndPeakBytes) {
  ckpt_runtime_reset();
  int64_t base = ckpt_runtime_live_bytes();
  void *a = _mlir_memref_to_llvm_aligned_alloc(64, 4096);
  void *b = _mlir_memref_to_llvm_aligned_alloc(64, 8192);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(ckpt_runtime_live_bytes(), base + 12288);
  _mlir_memref_to_llvm_free(a);
  void *c = _mlir_memref_to_llvm_alloc(1000);
  EXPECT_EQ(ckpt_runtime_live_bytes(), base + 9192);
  _mlir_memref_to_llvm_free(b);
  _mlir_memref_to_llvm_free(c);
  EXPECT_EQ(ckpt_runtime_live_bytes(), base);
  EXPECT_EQ(ckpt_runtime_peak_bytes(), base + 12288);
  EXPECT_EQ(ckpt_runtime_allocation_count(), 3);
}

TEST(CkptRuntime, ResetStartsNewMeasurementFromLiveBytes) {
  void *keep = _mlir_memref_to_llvm_aligned_alloc(64, 4096);
  void *tmp = _mlir_memref_to_llvm_aligned_alloc(64, 65536);
  _mlir_memref_to_llvm_free(tmp);
  ckpt_runtime_reset();
  EXPECT_EQ(ckpt_runtime_peak_bytes(), ckpt_runtime_live_bytes());
  EXPECT_EQ(ckpt_runtime_allocation_count(), 0);
  int64_t live = ckpt_runtime_live_bytes();
  void *more = _mlir_memref_to_llvm_aligned_alloc(64, 128);
  EXPECT_EQ(ckpt_runtime_peak_bytes(), live + 128);
  _mlir_memref_to_llvm_free(more);
  _mlir_memref_to_llvm_free(keep);
}

TEST(CkptRuntime, ForeignFreeIsCountedNotForwarded) {
  ckpt_runtime_reset();
  int local = 0;
  _mlir_memref_to_llvm_free(&local);
  _mlir_memref_to_llvm_free(nullptr);
  EXPECT_EQ(ckpt_runtime_unknown_free_count(), 1);
  ckpt_runtime_reset();
  EXPECT_EQ(ckpt_runtime_unknown_free_count(), 0);
}

TEST(CkptRuntime, RoundsAlignmentUpToPowerOfTwo) {
  void *p = _mlir_memref_to_llvm_aligned_alloc(48, 96);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
  _mlir_memref_to_llvm_free(p);
}

} // namespace
