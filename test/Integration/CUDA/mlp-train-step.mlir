// REQUIRES: cuda-gpu, cuda-runtime
// Tests, by execution on a GPU, that the bundled training step compiled
// with ckpt-gpu-pipeline (cuBLAS GEMMs, and again with generated GEMM
// kernels) prints the same loss and gradients as the CPU pipeline, frees
// every device buffer, and reports its device peak. The inputs are small
// dyadic numbers, so the sums do not depend on the order of summation at
// the 6 printed digits: the outputs must be identical (buffer addresses
// and the CPU runtime's report line are removed before comparing).
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-cpu-pipeline | %run_cpu | sed -e '/^ckpt-runtime:/d' -e 's/base@ = 0x[0-9a-f]*//' > %t.cpu
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-gpu-pipeline -o %t.cublas.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.cublas.mlir -o %t.cublas.ll
// RUN: %clang -c -Wno-override-module %t.cublas.ll -o %t.cublas.o
// RUN: %link_cuda %t.cublas.o -o %t.cublas.exe
// RUN: env CKPT_CUDA_RUNTIME_REPORT=stderr %t.cublas.exe 2> %t.cublas.err | sed -e '/^ckpt-runtime:/d' -e 's/base@ = 0x[0-9a-f]*//' > %t.cublas.out
// RUN: diff %t.cpu %t.cublas.out
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.cublas.err
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --pass-pipeline="builtin.module(ckpt-gpu-pipeline{gemm=codegen})" | mlir-translate --mlir-to-llvmir -o %t.codegen.ll
// RUN: %clang -c -Wno-override-module %t.codegen.ll -o %t.codegen.o
// RUN: %link_cuda %t.codegen.o -o %t.codegen.exe
// RUN: %t.codegen.exe | sed -e '/^ckpt-runtime:/d' -e 's/base@ = 0x[0-9a-f]*//' > %t.codegen.out
// RUN: diff %t.cpu %t.codegen.out
// RUN: FileCheck %s --input-file=%t.cpu

// The CPU result (printMemrefF32 of the loss and two gradient slices).
// CHECK:      data =
// CHECK-NEXT: [0.255076]
// Every device buffer is freed by exit; nothing was freed twice or unknown.
// REPORT: ckpt-cuda-runtime: peak_bytes={{[1-9][0-9]*}} live_bytes=0 allocations={{[1-9][0-9]*}} unknown_frees=0
