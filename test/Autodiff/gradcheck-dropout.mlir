// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): dropout driven by ckpt.random_uniform (the
// mask is the same in every evaluation, so finite differences see the same
// function the gradient is taken of).
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%x: tensor<4x6xf64>, %w: tensor<6x6xf64>) -> tensor<f64> {
  %seed = arith.constant 1234 : i64
  %offset = arith.constant 0 : i64
  %u = ckpt.random_uniform %seed, %offset : tensor<4x6xf64>
  %c0 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x6xf64>
  %z = linalg.fill ins(%c0 : f64) outs(%e : tensor<4x6xf64>) -> tensor<4x6xf64>
  %h = linalg.matmul ins(%x, %w : tensor<4x6xf64>, tensor<6x6xf64>) outs(%z : tensor<4x6xf64>) -> tensor<4x6xf64>
  %e2 = tensor.empty() : tensor<4x6xf64>
  %d = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h, %u : tensor<4x6xf64>, tensor<4x6xf64>) outs(%e2 : tensor<4x6xf64>) {
  ^bb0(%hv: f64, %uv: f64, %o: f64):
    %keep = arith.constant 0.75 : f64
    %kept = arith.cmpf olt, %uv, %keep : f64
    %scaled = arith.divf %hv, %keep : f64
    %zero = arith.constant 0.0 : f64
    %r = arith.select %kept, %scaled, %zero : f64
    linalg.yield %r : f64
  } -> tensor<4x6xf64>
  %se = tensor.empty() : tensor<f64>
  %s0 = linalg.fill ins(%c0 : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<4x6xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%sqv: f64, %sqacc: f64):
    %sqq = arith.mulf %sqv, %sqv : f64
    %sqr = arith.addf %sqacc, %sqq : f64
    linalg.yield %sqr : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
