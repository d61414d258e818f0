// Two 4 KiB activations, "a" and "b", kept from the forward part to their
// late uses (remat-policy.test).
func.func @two_activations(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.exp {ckpt.name = "a"} ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.exp {ckpt.name = "b"} ins(%w : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
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
