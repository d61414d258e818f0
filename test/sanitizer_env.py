"""Test environment for sanitizer builds (CKPT_SANITIZE, scripts/sanitize.sh).

ckpt's tools and libraries then link the shared ASan runtime, and ckpt
libraries are loaded into uninstrumented processes too (the stock mlir-opt
with CkptPlugin.so, mlir-runner with libckpt_runtime.so, Python with
ahead-of-time libraries), so the runtime is preloaded into every process a
test starts. Leak checking is off: LLVM's tools deliberately leak at exit,
and so do Python and lit's helpers.

User poisoning is off (allow_user_poisoning=0). LLVM's headers poison the
unused part of every BumpPtrAllocator slab when the including file is built
with ASan, but libLLVM and libMLIR are not: a slab that ckpt's instrumented
code allocated (say, for a ckpt attribute's storage in the context's
uniquer) is then handed out piecewise by libMLIR's uninstrumented copy of
Allocate, which never unpoisons, and the next libMLIR write into it is
reported as use-after-poison (seen in Differential/difftest.test: a location
attribute written into a slab that ckpt.phase storage had opened). ckpt
itself poisons nothing, so no real finding is lost.
"""

import os
import shutil
import subprocess


def configure(config, sanitize, llvm_tools_dir=None):
    if not sanitize:
        return
    clang = None
    for candidate in ([os.path.join(llvm_tools_dir, "clang")] if llvm_tools_dir else []) + [
            shutil.which("clang-22"), shutil.which("clang")]:
        if candidate and os.path.exists(candidate):
            clang = candidate
            break
    if clang is None:
        raise RuntimeError("sanitizer build: no clang to find the ASan runtime with")
    runtime = subprocess.check_output(
        [clang, "-print-file-name=libclang_rt.asan-x86_64.so"], text=True).strip()
    config.environment["LD_PRELOAD"] = runtime
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:detect_container_overflow=0:allow_user_poisoning=0:"
        "halt_on_error=1")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitizer")
