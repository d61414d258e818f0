// A must_recompute value computed by a call to an external function: the
// call may have side effects, so ckpt-remat does not repeat it
// (remat-policy.test).
func.func private @produce(tensor<32x32xf32>) -> tensor<32x32xf32>

func.func @two_activations(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.exp {ckpt.name = "a"} ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = func.call @produce(%w) {ckpt.name = "b", ckpt.policy = #ckpt.policy<must_recompute>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%a, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %n = linalg.matmul ins(%m, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %o = linalg.matmul ins(%n, %m : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = linalg.add ins(%o, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.add ins(%s, %b : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
