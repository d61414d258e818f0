// Gradient check by execution (f64, central differences, see gradcheck.py):
// ckpt.attention differentiated by ckpt-autodiff into ckpt.attention_grad
// (probabilities recomputed from the log-sum-exp), causal and not, with
// more keys than queries, a value width unlike the head width and a key
// padding mask (on the second op; a masked key gets no gradient).
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// The same through ckpt-decompose-attention (the linalg form the GPU pipeline
// and IREE get):
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-decompose-attention --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id3 = affine_map<(b, i, j) -> (b, i, j)>
#sum3 = affine_map<(b, i, j) -> ()>

func.func @loss(%q: tensor<2x5x3xf64>, %k: tensor<2x7x3xf64>, %v: tensor<2x7x4xf64>) -> tensor<f64> {
  %e = tensor.empty() : tensor<2x5x4xf64>
  %l = tensor.empty() : tensor<2x5xf64>
  %o, %lse = ckpt.attention causal scale(0.7)
      ins(%q, %k, %v : tensor<2x5x3xf64>, tensor<2x7x3xf64>, tensor<2x7x4xf64>)
      outs(%e, %l : tensor<2x5x4xf64>, tensor<2x5xf64>) -> tensor<2x5x4xf64>, tensor<2x5xf64>
  %n = tensor.empty() : tensor<2x5x4xf64>
  %mask = arith.constant dense<[[true, false, true, true, false, true, true],
                                [false, true, true, true, true, true, false]]> : tensor<2x7xi1>
  %o2, %lse2 = ckpt.attention scale(-1.3) key_mask(%mask : tensor<2x7xi1>)
      ins(%q, %k, %v : tensor<2x5x3xf64>, tensor<2x7x3xf64>, tensor<2x7x4xf64>)
      outs(%n, %l : tensor<2x5x4xf64>, tensor<2x5xf64>) -> tensor<2x5x4xf64>, tensor<2x5xf64>
  %y = arith.mulf %o, %o2 : tensor<2x5x4xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id3, #sum3], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%y : tensor<2x5x4xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%x: f64, %acc: f64):
    %r = arith.addf %acc, %x : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
