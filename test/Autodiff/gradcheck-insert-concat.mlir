// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): tensor.insert_slice and tensor.concat
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<4x6xf64>, %b: tensor<2x3xf64>, %c: tensor<4x2xf64>) -> tensor<f64> {
  %ins = tensor.insert_slice %b into %a[1, 2] [2, 3] [1, 1] : tensor<2x3xf64> into tensor<4x6xf64>
  %cat = tensor.concat dim(1) %ins, %c : (tensor<4x6xf64>, tensor<4x2xf64>) -> tensor<4x8xf64>
  %t = math.tanh %cat : tensor<4x8xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%t : tensor<4x8xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
