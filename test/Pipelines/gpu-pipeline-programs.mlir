// Tests that the step functions of the CPU execution tests and the bundled
// training step compile through ckpt-gpu-pipeline to a host module with one
// cubin per kernel, the expected number of kernels and cuBLAS call sites,
// and no floating-point work left on the host. The counts change when the
// kernel mapping or fusion changes; they were checked by reading the IR.
// (Kept to five programs so that the test stays a few seconds long.)
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-gpu-pipeline -o %t.mlp.mlir
// RUN: %count_gpu %t.mlp.mlir | FileCheck %s --check-prefix=MLP
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --pass-pipeline="builtin.module(ckpt-gpu-pipeline{gemm=codegen})" -o %t.mlp-codegen.mlir
// RUN: %count_gpu %t.mlp-codegen.mlir | FileCheck %s --check-prefix=MLP-CODEGEN
// RUN: ckpt-opt %ckpt_src_root/test/Integration/CPU/mlp-chain.mlir --ckpt-gpu-pipeline -o %t.chain.mlir
// RUN: %count_gpu %t.chain.mlir | FileCheck %s --check-prefix=CHAIN
// RUN: ckpt-opt %ckpt_src_root/test/Integration/CPU/softmax-erf.mlir --ckpt-gpu-pipeline -o %t.softmax.mlir
// RUN: %count_gpu %t.softmax.mlir | FileCheck %s --check-prefix=SOFTMAX
// RUN: ckpt-opt %ckpt_src_root/test/Integration/CPU/peak-scf-loop.mlir --ckpt-gpu-pipeline -o %t.loop.mlir
// RUN: %count_gpu %t.loop.mlir | FileCheck %s --check-prefix=LOOP

// %count_gpu prints: kernels (gpu.binary ops), cuBLAS call sites, host
// floating-point ops, and ops outside LLVM/gpu.binary/gpu.launch_func.
// The training step: 13 kernels in @train_step (fills, ReLU, loss, scaling,
// dW1 with the fused ReLU backward, the rounding of the loss's f64 sum), 4 in
// @main (input patterns); 4 GEMMs.
// MLP:         kernels=17 cublas=4 host_fp=0 other_ops=0
// MLP-CODEGEN: kernels=21 cublas=0 host_fp=0 other_ops=0
// CHAIN:       kernels=9 cublas=1 host_fp=0 other_ops=0
// SOFTMAX:     kernels=11 cublas=1 host_fp=0 other_ops=0
// LOOP:        kernels=5 cublas=1 host_fp=0 other_ops=0
