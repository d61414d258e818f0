// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): linalg.batch_matmul, then a collapse to 2-D
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<2x3x5xf64>, %b: tensor<2x5x4xf64>) -> tensor<f64> {
  %c0 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x3x4xf64>
  %z = linalg.fill ins(%c0 : f64) outs(%e : tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x3x5xf64>, tensor<2x5x4xf64>) outs(%z : tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %c = tensor.collapse_shape %m [[0, 1], [2]] : tensor<2x3x4xf64> into tensor<6x4xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%c : tensor<6x4xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
