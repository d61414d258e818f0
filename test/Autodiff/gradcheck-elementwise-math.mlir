// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): exp, log, tanh, erf, sqrt, rsqrt
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<4x6xf64>) -> tensor<f64> {
  %one = arith.constant dense<1.0> : tensor<4x6xf64>
  %half = arith.constant dense<0.5> : tensor<4x6xf64>
  %aa = arith.mulf %a, %a : tensor<4x6xf64>
  %pos = arith.addf %aa, %one : tensor<4x6xf64>
  %pos2 = arith.addf %aa, %half : tensor<4x6xf64>
  %e = math.exp %a : tensor<4x6xf64>
  %l = math.log %pos : tensor<4x6xf64>
  %t = math.tanh %a : tensor<4x6xf64>
  %f = math.erf %a : tensor<4x6xf64>
  %s = math.sqrt %pos2 : tensor<4x6xf64>
  %r = math.rsqrt %pos2 : tensor<4x6xf64>
  %x1 = arith.addf %e, %l : tensor<4x6xf64>
  %x2 = arith.addf %t, %f : tensor<4x6xf64>
  %x3 = arith.addf %s, %r : tensor<4x6xf64>
  %x4 = arith.mulf %x1, %x2 : tensor<4x6xf64>
  %x5 = arith.addf %x4, %x3 : tensor<4x6xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%x5 : tensor<4x6xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
