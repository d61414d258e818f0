func.func @step(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.exp ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%b, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.add ins(%b, %c : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %d = linalg.matmul ins(%t, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.add ins(%d, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
