// RUN: ckpt-opt %s --ckpt-cpu-pipeline | FileCheck %s
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-cpu-pipeline{fuse-elementwise=false})" | FileCheck %s --check-prefix=NOFUSE
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-cpu-pipeline{libm-math=1})" | FileCheck %s --check-prefix=LIBM

// Tests that the CPU pipeline lowers linalg on tensors with a recompute
// region, softmax and erf to LLVM only, routes allocation through the
// runtime's generic aligned hooks, computes erf and exp as polynomials (libm
// calls with libm-math) and inlines private helpers; each loop nest is a
// function of its own, called from the step.
// CHECK-NOT:   ckpt.recompute
// CHECK-NOT:   linalg.
// CHECK-NOT:   func.func
// CHECK-DAG:   llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG:   llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-NOT:   @erff
// CHECK-NOT:   llvm.intr.exp
// CHECK-NOT:   llvm.func @helper
// CHECK:       llvm.func internal @step__nest{{[0-9]+}}({{.*}}) attributes {passthrough = ["noinline"]
// CHECK:         llvm.intr.fma
// CHECK:       llvm.func @step(
// CHECK:         llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK:         llvm.call @step__nest{{[0-9]+}}(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free

// Tests that the pipeline lowers fully with fusion turned off too.
// NOFUSE-NOT:  linalg.
// NOFUSE:      llvm.func internal @step__nest
// NOFUSE:        llvm.intr.fma
// NOFUSE:      llvm.func @step(

// Tests that libm-math keeps libm's erf.
// LIBM-DAG:    llvm.func @erff(f32) -> f32
// LIBM-DAG:    llvm.call @erff

#id = affine_map<(i, j) -> (i, j)>

func.func private @helper(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %n = arith.negf %x : tensor<32x32xf32>
  return %n : tensor<32x32xf32>
}

func.func @step(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %h = call @helper(%x) : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = ckpt.recompute(%a = %h : tensor<32x32xf32>) -> tensor<32x32xf32> {
    %t = math.tanh %a : tensor<32x32xf32>
    ckpt.yield %t : tensor<32x32xf32>
  }
  %s = linalg.softmax dimension(1) ins(%r : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %g = math.erf %s : tensor<32x32xf32>
  return %g : tensor<32x32xf32>
}
