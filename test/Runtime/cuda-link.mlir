// REQUIRES: cuda-runtime
// Tests that host code from ckpt-gpu-pipeline links against
// libckpt_cuda_runtime and the CUDA driver (the stub here) with no symbol
// missing, and that running it where no driver works stops with the
// runtime's message and exit status 1 (not a crash or a hang).
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-gpu-pipeline -o %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o %t.ll
// RUN: %clang -c -Wno-override-module %t.ll -o %t.o
// RUN: llvm-nm --undefined-only %t.o | FileCheck %s --check-prefix=UNDEF
// RUN: %link_cuda %t.o -o %t.exe
// RUN: rm -rf %t.stub && mkdir -p %t.stub && ln -s %cuda_stub_dir/libcuda.so %t.stub/libcuda.so.1
// RUN: env LD_LIBRARY_PATH=%t.stub CKPT_CUDA_RUNTIME_REPORT=stdout not %t.exe > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=NOGPU --input-file=%t.out

// The entry points the translated host code calls (module load in a global
// constructor, launches, synchronous streams, managed allocations, GEMMs).
// UNDEF-DAG: U _mlir_ciface_ckpt_cuda_gemm_f32
// UNDEF-DAG: U mgpuLaunchKernel
// UNDEF-DAG: U mgpuMemAlloc
// UNDEF-DAG: U mgpuMemFree
// UNDEF-DAG: U mgpuModuleGetFunction
// UNDEF-DAG: U mgpuModuleLoad
// UNDEF-DAG: U mgpuModuleUnload
// UNDEF-DAG: U mgpuStreamCreate
// UNDEF-DAG: U mgpuStreamDestroy
// UNDEF-DAG: U mgpuStreamSynchronize

// The driver stub answers cuInit with CUDA_ERROR_STUB_LIBRARY: the first
// module load reports it; nothing else is printed (no report, no output).
// NOGPU:     ckpt-cuda-runtime: error: no usable CUDA driver or GPU (cuInit: CUDA_ERROR_STUB_LIBRARY, code 34: the CUDA driver stub was loaded instead of a real driver)
// NOGPU-NOT: {{.}}
