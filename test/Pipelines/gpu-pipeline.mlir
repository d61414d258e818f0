// RUN: ckpt-opt %s --ckpt-gpu-pipeline -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=DECL
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=BODY
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=HOST
// RUN: %count_gpu %t.mlir | FileCheck %s --check-prefix=KERNELS
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{gemm=codegen})" -o %t.codegen.mlir
// RUN: FileCheck %s --input-file=%t.codegen.mlir --check-prefix=CODEGEN
// RUN: %count_gpu %t.codegen.mlir | FileCheck %s --check-prefix=CODEGEN-KERNELS
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{allow-tf32=true host-shared=false})" | FileCheck %s --check-prefix=TF32
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-gpu-pipeline{format=isa})" | FileCheck %s --check-prefix=ISA

// Tests that the GPU pipeline lowers a recompute region, a matmul, softmax
// and erf to a host module of LLVM ops with one embedded cubin holding every
// kernel (ckpt-merge-gpu-modules):
// the matmul becomes a cuBLAS call, every other linalg op a kernel, buffers
// GPU allocations freed on the host, and the private helper is inlined.
// DECL-DAG:    llvm.func @_mlir_ciface_ckpt_cuda_gemm_f32(!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32)
// DECL-DAG:    llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// DECL-DAG:    llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
// DECL-DAG:    gpu.binary @step_kernel  [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, bin = "\7FELF
// BODY:        llvm.func @step
// BODY:          llvm.call @mgpuMemAlloc
// BODY:          gpu.launch_func
// BODY:          llvm.call @ckpt_cuda_gemm_f32
// BODY:          gpu.launch_func
// BODY:          llvm.call @mgpuMemFree
// BODY:          llvm.return

// Tests that nothing but LLVM ops, binaries and launches is left, and no
// floating-point work runs on the host (it all sits in the cubins).
// HOST-NOT:    ckpt.recompute
// HOST-NOT:    linalg.
// HOST-NOT:    scf.
// HOST-NOT:    gpu.launch {
// HOST-NOT:    gpu.module
// HOST-NOT:    llvm.func @helper
// HOST-NOT:    llvm.f{{add|sub|mul|div|cmp}}
// HOST-NOT:    llvm.intr.{{exp|tanh|maximum|erf}}

// Kernels: the negation, the tanh of the recompute region (inlined after
// bufferization, so not fused), the matmul's fill, the decomposed softmax
// (two fills, max, subtract-exp, sum) and its division fused with erf.
// KERNELS: kernels=9 cublas=1 host_fp=0 other_ops=0 binaries=1

// Tests that with gemm=codegen the matmul is a generated kernel too.
// CODEGEN-NOT: ckpt_cuda_gemm
// CODEGEN:     gpu.binary
// CODEGEN-KERNELS: kernels=10 cublas=0 host_fp=0 other_ops=0 binaries=1

// Tests the TF32 GEMM and device (not managed) memory: mgpuMemAlloc's last
// operand (isHostShared) is 0.
// TF32:        llvm.func @step
// TF32:          %[[FALSE:.*]] = llvm.mlir.constant(0 : i8) : i8
// TF32:          llvm.call @mgpuMemAlloc(%{{.*}}, %{{.*}}, %[[FALSE]])
// TF32:          llvm.call @ckpt_cuda_gemm_tf32

// Tests that format=isa embeds PTX for the chosen target.
// ISA:         gpu.binary @step_kernel  [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, properties = {{.*}}, assembly = "{{.*}}.target sm_90

func.func private @helper(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %n = arith.negf %x : tensor<32x32xf32>
  return %n : tensor<32x32xf32>
}

func.func @step(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %h = call @helper(%x) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = ckpt.recompute(%a = %h : tensor<32x32xf32>) -> tensor<32x32xf32> {
    %t = math.tanh %a : tensor<32x32xf32>
    ckpt.yield %t : tensor<32x32xf32>
  }
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%r, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = linalg.softmax dimension(1) ins(%m : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %g = math.erf %s : tensor<32x32xf32>
  return %g : tensor<32x32xf32>
}
