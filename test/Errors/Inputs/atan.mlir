// A loss through an op ckpt-autodiff has no rule for (math.atan).
func.func @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.atan %v : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %c0 = arith.constant 0.0 : f32
  %z = tensor.empty() : tensor<f32>
  %zf = linalg.fill ins(%c0 : f32) outs(%z : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%a : tensor<4xf32>) outs(%zf : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}
