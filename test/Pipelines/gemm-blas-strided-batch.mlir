// Tests batched products whose operands are not batch-first (attention's
// layouts once an importer's transposes fold into the maps) through the
// BLAS: they become GEMM calls on transposed views, and give the loops'
// outputs within rounding.
// REQUIRES: blas
// RUN: rm -rf %t && mkdir -p %t
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-cpu-pipeline{gemm=blas})" | FileCheck %s --check-prefix=LOWERED
// LOWERED-COUNT-2: llvm.call @ckpt_cpu_batch_gemm_f32
// RUN: ckpt-run %s --entry=products --iterations=1 > %t/loops.txt
// RUN: ckpt-run %s --entry=products --iterations=1 --gemm=blas > %t/blas.txt
// RUN: ckpt-run %s --entry=products --iterations=1 --gemm=blas --num-threads=2 > %t/blas2.txt
// RUN: python3 %S/compare-outputs.py %t/loops.txt %t/blas.txt 1e-5 | FileCheck %s
// RUN: python3 %S/compare-outputs.py %t/loops.txt %t/blas2.txt 1e-5 | FileCheck %s
// CHECK: outputs_close=yes
func.func @products(%a: tensor<8x16x24xf32>, %b: tensor<24x8x12xf32>, %q: tensor<16x8x24xf32>)
    -> (tensor<16x8x12xf32>, tensor<8x16x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x8x12xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x8x12xf32>) -> tensor<16x8x12xf32>
  // C[m, b, n] += A[b, m, k] * B[k, b, n]
  %c = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, b, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16x24xf32>, tensor<24x8x12xf32>) outs(%c0 : tensor<16x8x12xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %0 = arith.mulf %x, %y : f32
      %1 = arith.addf %z, %0 : f32
      linalg.yield %1 : f32
  } -> tensor<16x8x12xf32>
  %e1 = tensor.empty() : tensor<8x16x12xf32>
  %d0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x16x12xf32>) -> tensor<8x16x12xf32>
  // D[b, m, n] += Q[m, b, k] * B[k, b, n]
  %d = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, b, k)>, affine_map<(b, m, n, k) -> (k, b, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %b : tensor<16x8x24xf32>, tensor<24x8x12xf32>) outs(%d0 : tensor<8x16x12xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %0 = arith.mulf %x, %y : f32
      %1 = arith.addf %z, %0 : f32
      linalg.yield %1 : f32
  } -> tensor<8x16x12xf32>
  return %c, %d : tensor<16x8x12xf32>, tensor<8x16x12xf32>
}
