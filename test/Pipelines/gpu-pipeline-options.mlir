// Tests that malformed ckpt-gpu-pipeline options are rejected with the
// accepted forms.
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{gemm=mkl})" 2>&1 | FileCheck %s --check-prefix=GEMM
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{format=elf})" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{chip=gfx90a})" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{threads-per-block=100})" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{chip=sm_50})" 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{cuda-path=%t.nowhere})" 2>&1 | FileCheck %s --check-prefix=TOOLKIT

// GEMM:    ckpt-gpu-pipeline: gemm must be 'cublas' or 'codegen', got 'mkl'
// FORMAT:  ckpt-gpu-pipeline: format must be 'bin', 'fatbin', 'isa' or 'offloading', got 'elf'
// CHIP:    ckpt-gpu-pipeline: chip must name an NVIDIA architecture such as 'sm_90', got 'gfx90a'
// THREADS: threads-per-block must be a multiple of 32 between 32 and 1024, got 100
// CUDA 13's ptxas no longer knows sm_50 (the upstream default), the reason
// the pipeline defaults to sm_90.
// PTXAS:   `ptxas` invocation failed
// PTXAS:   Value 'sm_50' is not defined
// The kernels' ptxas and libdevice come from cuda-path (by default the
// toolkit CMake found), not from the environment.
// TOOLKIT: CUDA path: {{.*}}nowhere does not exist or is not a directory.

func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = math.exp %a : tensor<64xf32>
  return %e : tensor<64xf32>
}
