/* A stand-in for the CUDA driver (libcuda.so.1) that runs on machines
 * without a GPU, for tests of the host side of CUDA builds: device and
 * managed memory are host memory, copies and memsets are performed, kernels
 * are counted but not run. What such a test can check: the program's
 * allocations, frees and copies (so libckpt_cuda_runtime's device peak and
 * the staging of ahead-of-time builds), module loads and the number of
 * launches; never the numbers kernels compute.
 *
 * With FAKE_CUDA_REPORT set, one line goes to standard error at exit:
 *   fake-cuda: modules=M launches=L allocations=A frees=F live=B
 */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long modules, launches, allocations, frees;
static long long liveBytes;

/* Sizes of live allocations, to report leaks (a small open-addressing
 * table keyed by pointer). */
#define SLOTS 65536
static struct { void *ptr; size_t size; } table[SLOTS];

static size_t slotOf(void *ptr) {
  return ((uintptr_t)ptr >> 8) % SLOTS;
}

static void remember(void *ptr, size_t size) {
  size_t slot = slotOf(ptr);
  while (table[slot].ptr)
    slot = (slot + 1) % SLOTS;
  table[slot].ptr = ptr;
  table[slot].size = size;
  liveBytes += size;
}

static int forget(void *ptr) {
  for (size_t slot = slotOf(ptr), n = 0; n < SLOTS; slot = (slot + 1) % SLOTS, ++n) {
    if (!table[slot].ptr)
      return 0;
    if (table[slot].ptr == ptr) {
      liveBytes -= table[slot].size;
      table[slot].ptr = NULL;
      /* Re-insert the rest of the cluster (deletion with linear probing). */
      for (size_t next = (slot + 1) % SLOTS; table[next].ptr; next = (next + 1) % SLOTS) {
        void *p = table[next].ptr;
        size_t size = table[next].size;
        table[next].ptr = NULL;
        liveBytes -= size;
        remember(p, size);
      }
      return 1;
    }
  }
  return 0;
}

static void report(void) {
  if (getenv("FAKE_CUDA_REPORT"))
    fprintf(stderr, "fake-cuda: modules=%ld launches=%ld allocations=%ld frees=%ld live=%lld\n",
            modules, launches, allocations, frees, liveBytes);
}

static int fakeContext, fakeModule, fakeFunction, fakeStream, fakeEvent;
static CUcontext current;

CUresult CUDAAPI cuInit(unsigned int flags) {
  (void)flags;
  atexit(report);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **name) {
  *name = error == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGetErrorString(CUresult error, const char **text) {
  *text = error == CUDA_SUCCESS ? "no error" : "fake driver error";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = (CUcontext)&fakeContext;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetCurrent(CUcontext *context) {
  *context = current;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxSetCurrent(CUcontext context) {
  current = context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) {
  if (!image)
    return CUDA_ERROR_INVALID_IMAGE;
  ++modules;
  *module = (CUmodule)&fakeModule;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int n,
                                    CUjit_option *options, void **values) {
  (void)n, (void)options, (void)values;
  return cuModuleLoadData(module, image);
}
CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  (void)module;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  (void)module;
  if (!name || !*name)
    return CUDA_ERROR_NOT_FOUND;
  *function = (CUfunction)&fakeFunction;
  return CUDA_SUCCESS;
}
/* Dynamic shared memory above the default 48 KiB needs an opt-in (as on a
 * real device); the fake keeps the largest one granted (227 KiB at most). */
static int sharedOptIn = 48 * 1024;
CUresult CUDAAPI cuFuncSetAttribute(CUfunction f, CUfunction_attribute attribute, int value) {
  (void)f;
  if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (value < 0 || value > 227 * 1024)
      return CUDA_ERROR_INVALID_VALUE;
    if (value > sharedOptIn)
      sharedOptIn = value;
  }
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                unsigned by, unsigned bz, unsigned shared, CUstream stream,
                                void **params, void **extra) {
  (void)f, (void)stream, (void)params, (void)extra;
  if (!gx || !gy || !gz || !bx || !by || !bz || (unsigned long)bx * by * bz > 1024 ||
      gy > 65535 || gz > 65535 || shared > (unsigned)sharedOptIn)
    return CUDA_ERROR_INVALID_VALUE;
  ++launches;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCreate(CUstream *stream, unsigned int flags) {
  (void)flags;
  *stream = (CUstream)&fakeStream;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  (void)stream;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamSynchronize(CUstream stream) {
  (void)stream;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  (void)stream, (void)event, (void)flags;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int flags) {
  (void)flags;
  *event = (CUevent)&fakeEvent;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy(CUevent event) {
  (void)event;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventSynchronize(CUevent event) {
  (void)event;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent event, CUstream stream) {
  (void)event, (void)stream;
  return CUDA_SUCCESS;
}

static CUresult allocate(CUdeviceptr *ptr, size_t bytes) {
  void *memory = aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  ++allocations;
  remember(memory, bytes);
  *ptr = (CUdeviceptr)memory;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *ptr, size_t bytes) { return allocate(ptr, bytes); }
CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes, unsigned int flags) {
  (void)flags;
  return allocate(ptr, bytes);
}
CUresult CUDAAPI cuMemFree(CUdeviceptr ptr) {
  if (!forget((void *)ptr))
    return CUDA_ERROR_INVALID_VALUE;
  ++frees;
  free((void *)ptr);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  (void)stream;
  memmove((void *)dst, (const void *)src, bytes);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count,
                                  CUstream stream) {
  (void)stream;
  for (size_t i = 0; i < count; ++i)
    ((unsigned int *)dst)[i] = value;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                                  CUstream stream) {
  (void)stream;
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)dst)[i] = value;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemHostRegister(void *ptr, size_t bytes, unsigned int flags) {
  (void)ptr, (void)bytes, (void)flags;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemHostUnregister(void *ptr) {
  (void)ptr;
  return CUDA_SUCCESS;
}
