// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): a 2-layer MLP with tanh and a scalar f64 loss
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%x: tensor<4x8xf64>, %w1: tensor<8x6xf64>, %w2: tensor<6x3xf64>) -> f64 {
  %c0 = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<4x6xf64>
  %z1 = linalg.fill ins(%c0 : f64) outs(%e1 : tensor<4x6xf64>) -> tensor<4x6xf64>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf64>, tensor<8x6xf64>) outs(%z1 : tensor<4x6xf64>) -> tensor<4x6xf64>
  %t = math.tanh %h : tensor<4x6xf64>
  %e2 = tensor.empty() : tensor<4x3xf64>
  %z2 = linalg.fill ins(%c0 : f64) outs(%e2 : tensor<4x3xf64>) -> tensor<4x3xf64>
  %y = linalg.matmul ins(%t, %w2 : tensor<4x6xf64>, tensor<6x3xf64>) outs(%z2 : tensor<4x3xf64>) -> tensor<4x3xf64>
  %se = tensor.empty() : tensor<f64>
  %s0 = linalg.fill ins(%c0 : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %l = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x3xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %q = arith.mulf %v, %v : f64
    %r = arith.addf %acc, %q : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  %loss = tensor.extract %l[] : tensor<f64>
  return %loss : f64
}
