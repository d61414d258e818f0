//===- CudaContext.cpp - driver initialization and error reporting --------===//
//
// Every entry point of the runtime runs in the primary context of device 0,
// set up once. A machine without a driver or a GPU gets one clear message
// and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "CudaSupport.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace {

/// Ends the process with status 1. Exit handlers do not run: a failure can
/// happen inside a module constructor, and handlers such as the module
/// destructors would call back into the runtime that just failed.
[[noreturn]] void terminate() {
  std::fflush(nullptr);
  std::_Exit(EXIT_FAILURE);
}

/// The errors of a machine without a usable GPU, named here because the
/// driver stub cannot name them itself.
const char *knownErrorName(CUresult result) {
  switch (result) {
  case CUDA_ERROR_STUB_LIBRARY:
    return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_DEINITIALIZED:
    return "CUDA_ERROR_DEINITIALIZED";
  default:
    return "unknown CUDA error";
  }
}

const char *knownErrorText(CUresult result) {
  switch (result) {
  case CUDA_ERROR_STUB_LIBRARY:
    return "the CUDA driver stub was loaded instead of a real driver";
  case CUDA_ERROR_NO_DEVICE:
    return "no CUDA-capable device is detected";
  case CUDA_ERROR_DEINITIALIZED:
    return "the CUDA driver is shutting down";
  default:
    return "no description";
  }
}

const char *errorName(CUresult result) {
  const char *name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return knownErrorName(result);
  return name;
}

const char *errorText(CUresult result) {
  const char *text = nullptr;
  if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    return knownErrorText(result);
  return text;
}

CUcontext initializePrimaryContext() {
  CUresult result = cuInit(/*Flags=*/0);
  if (result != CUDA_SUCCESS) {
    std::fprintf(stderr,
                 "ckpt-cuda-runtime: error: no usable CUDA driver or GPU "
                 "(cuInit: %s, code %d: %s)\n",
                 errorName(result), static_cast<int>(result),
                 errorText(result));
    terminate();
  }
  // Exit handlers run in reverse order of registration: this one runs
  // before the handler cuInit registered, while the driver still works.
  std::atexit([] { ckpt::cuda::drainPool(); });
  CUdevice device;
  ckpt::cuda::check(cuDeviceGet(&device, /*ordinal=*/0), "cuDeviceGet");
  CUcontext context = nullptr;
  ckpt::cuda::check(cuDevicePrimaryCtxRetain(&context, device),
                    "cuDevicePrimaryCtxRetain");
  return context;
}

} // namespace

void ckpt::cuda::check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  std::fprintf(stderr,
               "ckpt-cuda-runtime: error: %s failed: %s (code %d: %s)\n", what,
               errorName(result), static_cast<int>(result), errorText(result));
  terminate();
}

void ckpt::cuda::fail(const char *message) {
  std::fprintf(stderr, "ckpt-cuda-runtime: error: %s\n", message);
  terminate();
}

void ckpt::cuda::ensureContext() {
  static std::once_flag once;
  static CUcontext context = nullptr;
  std::call_once(once, [] { context = initializePrimaryContext(); });
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) != CUDA_SUCCESS || current != context)
    check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

bool ckpt::cuda::enterContextForRelease() {
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_ERROR_DEINITIALIZED)
    return false;
  ensureContext();
  return true;
}
