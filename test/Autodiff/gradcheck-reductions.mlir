// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): a row sum and a row max, broadcast back (layer-norm-like)
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<4x6xf64>) -> tensor<f64> {
  %c0 = arith.constant 0.0 : f64
  %ninf = arith.constant -1.0e30 : f64
  %e = tensor.empty() : tensor<4xf64>
  %z = linalg.fill ins(%c0 : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %sum = linalg.reduce ins(%a : tensor<4x6xf64>) outs(%z : tensor<4xf64>) dimensions = [1]
    (%x: f64, %acc: f64) {
      %r = arith.addf %x, %acc : f64
      linalg.yield %r : f64
    }
  %m0 = linalg.fill ins(%ninf : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %max = linalg.reduce ins(%a : tensor<4x6xf64>) outs(%m0 : tensor<4xf64>) dimensions = [1]
    (%x: f64, %acc: f64) {
      %r = arith.maximumf %x, %acc : f64
      linalg.yield %r : f64
    }
  %e2 = tensor.empty() : tensor<4x6xf64>
  %y = linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %sum, %max : tensor<4x6xf64>, tensor<4xf64>, tensor<4xf64>) outs(%e2 : tensor<4x6xf64>) {
  ^bb0(%x: f64, %s: f64, %m: f64, %o: f64):
    %k = arith.constant 0.25 : f64
    %c = arith.mulf %s, %k : f64
    %d = arith.subf %x, %c : f64
    %r = arith.mulf %d, %m : f64
    linalg.yield %r : f64
  } -> tensor<4x6xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x6xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
