//===- DriverWrappers.cpp - mgpu* entry points over the driver API --------===//
//
// The functions host code calls after `gpu-to-llvm` and translation to LLVM
// IR, with the signatures MLIR 22 emits (checked by listing the undefined
// `mgpu*` symbols of translated modules; test/Runtime/cuda-link.mlir links
// one against this library). Streams are non-blocking and, like device
// memory, reused (DevicePool.cpp); `index` arguments arrive as intptr_t.
// Device allocations are counted by the ledger.
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include <cstdint>

using ckpt::cuda::check;
using ckpt::cuda::ensureContext;

namespace {

/// The leading fields of every ranked memref descriptor.
struct MemRefPrefix {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizes[1]; // `rank` sizes, then `rank` strides.
};

/// Bytes spanned by a dense memref of `rank` dimensions.
uint64_t denseSizeBytes(int64_t rank, const MemRefPrefix *descriptor,
                        int64_t elementSizeBytes) {
  uint64_t elements = 1;
  for (int64_t i = 0; i < rank; ++i)
    elements *= static_cast<uint64_t>(descriptor->sizes[i]);
  return elements * static_cast<uint64_t>(elementSizeBytes);
}

char *memRefData(const MemRefPrefix *descriptor, int64_t elementSizeBytes) {
  return descriptor->aligned + descriptor->offset * elementSizeBytes;
}

} // namespace

extern "C" {

CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  ensureContext();
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

CUmodule mgpuModuleLoadJIT(void *data, int optLevel, size_t /*assemblySize*/) {
  ensureContext();
  CUmodule module = nullptr;
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  check(cuModuleLoadDataEx(&module, data, 1, options, values),
        "cuModuleLoadDataEx");
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  if (!ckpt::cuda::enterContextForRelease())
    return;
  check(cuModuleUnload(module), "cuModuleUnload");
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  ensureContext();
  CUfunction function = nullptr;
  check(cuModuleGetFunction(&function, module, name), "cuModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes,
                      CUstream stream, void **params, void **extra,
                      size_t /*paramsCount*/) {
  ensureContext();
  bool profiling = ckpt::cuda::profiling();
  auto start = profiling ? std::chrono::steady_clock::now()
                         : std::chrono::steady_clock::time_point();
  check(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                       sharedMemoryBytes, stream, params, extra),
        "cuLaunchKernel");
  if (!profiling)
    return;
  // Each kernel timed alone: wait for it here. The time counts for the
  // kernel and for the `launch` kind.
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
  int64_t elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  int64_t grid[3] = {gridX, gridY, gridZ};
  int64_t block[3] = {blockX, blockY, blockZ};
  ckpt::cuda::recordKernel(function, grid, block, elapsed);
  ckpt::cuda::recordCall(ckpt::cuda::CallKind::Launch, elapsed);
}

CUstream mgpuStreamCreate() {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Stream);
  ensureContext();
  return ckpt::cuda::acquireStream();
}

void mgpuStreamDestroy(CUstream stream) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Stream);
  if (!ckpt::cuda::enterContextForRelease())
    return;
  ckpt::cuda::releaseStream(stream);
}

void mgpuStreamSynchronize(CUstream stream) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::StreamSync);
  ensureContext();
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  ensureContext();
  check(cuStreamWaitEvent(stream, event, /*Flags=*/0), "cuStreamWaitEvent");
}

CUevent mgpuEventCreate() {
  ensureContext();
  CUevent event = nullptr;
  check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(CUevent event) {
  if (!ckpt::cuda::enterContextForRelease())
    return;
  check(cuEventDestroy(event), "cuEventDestroy");
}

void mgpuEventSynchronize(CUevent event) {
  ensureContext();
  check(cuEventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  ensureContext();
  check(cuEventRecord(event, stream), "cuEventRecord");
}

/// `isHostShared` selects managed memory, reachable from host and device.
void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/, bool isHostShared) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Alloc);
  ensureContext();
  // The driver rejects zero-byte allocations; a zero-sized memref still
  // needs a distinct pointer to free.
  size_t requested = sizeBytes ? sizeBytes : 1;
  void *result = reinterpret_cast<void *>(
      ckpt::cuda::allocateDevice(requested, isHostShared));
  ckpt::cuda::recordAllocation(result, sizeBytes);
  return result;
}

void mgpuMemFree(void *ptr, CUstream stream) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Free);
  if (!ptr)
    return;
  // A pointer this runtime did not hand out is counted and left alone.
  if (!ckpt::cuda::recordFree(ptr) || !ckpt::cuda::enterContextForRelease())
    return;
  // The buffer may still be in use by work queued on `stream`.
  if (stream)
    check(cuStreamSynchronize(stream), "cuStreamSynchronize");
  ckpt::cuda::freeDevice(reinterpret_cast<CUdeviceptr>(ptr));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Copy);
  ensureContext();
  check(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                      reinterpret_cast<CUdeviceptr>(src), sizeBytes, stream),
        "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  CUstream stream) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Copy);
  ensureContext();
  check(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  ckpt::cuda::ProfiledCall profiled(ckpt::cuda::CallKind::Copy);
  ensureContext();
  check(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD16Async");
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ensureContext();
  check(cuMemHostRegister(ptr, sizeBytes, /*Flags=*/0), "cuMemHostRegister");
}

void mgpuMemHostRegisterMemRef(int64_t rank, MemRefPrefix *descriptor,
                               int64_t elementSizeBytes) {
  mgpuMemHostRegister(memRefData(descriptor, elementSizeBytes),
                      denseSizeBytes(rank, descriptor, elementSizeBytes));
}

void mgpuMemHostUnregister(void *ptr) {
  if (!ckpt::cuda::enterContextForRelease())
    return;
  check(cuMemHostUnregister(ptr), "cuMemHostUnregister");
}

void mgpuMemHostUnregisterMemRef(int64_t /*rank*/, MemRefPrefix *descriptor,
                                 int64_t elementSizeBytes) {
  mgpuMemHostUnregister(memRefData(descriptor, elementSizeBytes));
}

void mgpuSetDefaultDevice(int32_t device) {
  if (device != 0)
    ckpt::cuda::fail("only device 0 is supported");
}

} // extern "C"
