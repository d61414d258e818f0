// RUN: ckpt-run %s --entry=step --compare --remat-budget=min --remat-solver=greedy --remat-report=%t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json

// Tests that a loop over tensors (as ckpt-convolution-to-gemm builds for
// chunks of images) is recomputed whole. %a, built row by row by an
// scf.for, is kept from its first use to its last, as in
// Integration/CPU/recompute-lowers-peak.mlir: recomputing the loop there
// (from %x, alive anyway) lowers the measured peak (arguments included) by
// one 4096 B tensor; the output is bit-identical and the forecast exact.
// Loops were never recomputed before: the smallest peak was the baseline.
// The loop alone: min's descent also recomputed a matmul for nothing
// (greedy-peak's step at the same peak), which min's cheapest plan at that
// peak leaves out.
// CHECK: baseline: {{.*}} peak_bytes=24576
// CHECK: remat: budget=min {{.*}} peak_bytes=20480 {{.*}} recompute_count=1
// CHECK: estimate_error=0.00% outputs_identical=yes within_budget=yes
// REPORT: "recomputed": [
// REPORT-NEXT: {
// REPORT-NEXT: "value": "scf.for"

func.func @step(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %a = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (tensor<32x32xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 32] [1, 1] : tensor<32x32xf32> to tensor<1x32xf32>
    %re = tensor.empty() : tensor<1x32xf32>
    %ex = linalg.exp ins(%row : tensor<1x32xf32>) outs(%re : tensor<1x32xf32>) -> tensor<1x32xf32>
    %next = tensor.insert_slice %ex into %acc[%i, 0] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<32x32xf32>
    scf.yield %next : tensor<32x32xf32>
  }
  %z0 = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%b, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.add ins(%b, %c : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %d = linalg.matmul ins(%t, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.add ins(%d, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
