// RUN: ckpt-opt %s --ckpt-merge-repeated-reductions --split-input-file | FileCheck %s

// BatchNorm's mean summed twice once widened: for the variance (into a
// generic fill) and to be saved (into a linalg.fill of the same constant).
// The second sum reads the first's result; its fill is erased.
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
// CHECK-LABEL: func.func @mean_summed_twice
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT:     linalg.fill
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// CHECK-NOT:     iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// CHECK:         return %[[SUM]], %[[SUM]]
func.func @mean_summed_twice(%x: tensor<8x4x16x16xf32>) -> (tensor<1x4x1x1xf64>, tensor<1x4x1x1xf64>) {
  %zero = arith.constant 0.0 : f64
  %zero2 = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<1x4x1x1xf64>
  %f1 = linalg.generic {indexing_maps = [#x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e1 : tensor<1x4x1x1xf64>) {
  ^bb0(%out: f64):
    linalg.yield %zero : f64
  } -> tensor<1x4x1x1xf64>
  %s1 = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x16x16xf32>) outs(%f1 : tensor<1x4x1x1xf64>) {
  ^bb0(%in: f32, %out: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %w, %out : f64
    linalg.yield %a : f64
  } -> tensor<1x4x1x1xf64>
  %e2 = tensor.empty() : tensor<1x4x1x1xf64>
  %f2 = linalg.fill ins(%zero2 : f64) outs(%e2 : tensor<1x4x1x1xf64>) -> tensor<1x4x1x1xf64>
  %s2 = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x16x16xf32>) outs(%f2 : tensor<1x4x1x1xf64>) {
  ^bb0(%in: f32, %out: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %w, %out : f64
    linalg.yield %a : f64
  } -> tensor<1x4x1x1xf64>
  return %s1, %s2 : tensor<1x4x1x1xf64>, tensor<1x4x1x1xf64>
}

// -----

// Not the same: another initial value, another payload, another input.
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
// CHECK-LABEL: func.func @different_sums
// CHECK-COUNT-4: iterator_types = ["reduction", "parallel", "reduction", "reduction"]
func.func @different_sums(%x: tensor<8x4x16x16xf32>, %y: tensor<8x4x16x16xf32>) -> (tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x4x1x1xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s0 = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x16x16xf32>) outs(%f0 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %s1 = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x16x16xf32>) outs(%f1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %s2 = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x16x16xf32>) outs(%f0 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.maximumf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %s3 = linalg.generic {indexing_maps = [#x, #c], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%y : tensor<8x4x16x16xf32>) outs(%f0 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  return %s0, %s1, %s2, %s3 : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>
}

// -----

// A reduction whose result is as large as its input (a row sum kept beside
// every row) is left twice: holding the first result longer costs memory.
#x = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @large_results
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]
func.func @large_results(%x: tensor<64x4xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s0 = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x4xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %s1 = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x4xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %s0, %s1 : tensor<64xf32>, tensor<64xf32>
}
