// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): linalg.matmul with a transposed right operand
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<6x5xf64>, %bt: tensor<4x5xf64>) -> tensor<f64> {
  %c0 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<6x4xf64>
  %z = linalg.fill ins(%c0 : f64) outs(%e : tensor<6x4xf64>) -> tensor<6x4xf64>
  %m = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<6x5xf64>, tensor<4x5xf64>) outs(%z : tensor<6x4xf64>) -> tensor<6x4xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%m : tensor<6x4xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
