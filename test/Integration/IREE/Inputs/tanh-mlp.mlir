// A three-layer tanh MLP whose loss is a plain sum of squares: a step IREE
// 3.13's CUDA target compiles (cuda-backend.test).
func.func @loss(%x: tensor<32x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>, %w3: tensor<16x16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<32x16xf32>, tensor<16x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %h1 = math.tanh %m1 : tensor<32x16xf32>
  %m2 = linalg.matmul ins(%h1, %w2 : tensor<32x16xf32>, tensor<16x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %h2 = math.tanh %m2 : tensor<32x16xf32>
  %m3 = linalg.matmul ins(%h2, %w3 : tensor<32x16xf32>, tensor<16x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %h3 = math.tanh %m3 : tensor<32x16xf32>
  %s = tensor.empty() : tensor<f32>
  %sf = linalg.fill ins(%zero : f32) outs(%s : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%h3 : tensor<32x16xf32>) outs(%sf : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %sq = arith.mulf %in, %in : f32
      %a = arith.addf %acc, %sq : f32
      linalg.yield %a : f32
    }
  return %r : tensor<f32>
}
