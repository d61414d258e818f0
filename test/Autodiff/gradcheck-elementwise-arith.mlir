// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): add, sub, mul, div, neg on whole tensors
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<4x6xf64>, %b: tensor<4x6xf64>) -> tensor<f64> {
  %one = arith.constant dense<1.0> : tensor<4x6xf64>
  %s = arith.addf %a, %b : tensor<4x6xf64>
  %d = arith.subf %a, %b : tensor<4x6xf64>
  %p = arith.mulf %s, %d : tensor<4x6xf64>
  %bb = arith.mulf %b, %b : tensor<4x6xf64>
  %den = arith.addf %bb, %one : tensor<4x6xf64>
  %q = arith.divf %p, %den : tensor<4x6xf64>
  %n = arith.negf %q : tensor<4x6xf64>
  %r = arith.addf %n, %a : tensor<4x6xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%r : tensor<4x6xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
