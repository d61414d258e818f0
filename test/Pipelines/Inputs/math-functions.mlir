// exp, log, log1p, expm1, tanh and erf of one f32 vector
// (approximate-math.test).
func.func @math_functions(%x: tensor<4096xf32>)
    -> (tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>,
        tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>) {
  %exp = math.exp %x : tensor<4096xf32>
  %log = math.log %x : tensor<4096xf32>
  %log1p = math.log1p %x : tensor<4096xf32>
  %expm1 = math.expm1 %x : tensor<4096xf32>
  %tanh = math.tanh %x : tensor<4096xf32>
  %erf = math.erf %x : tensor<4096xf32>
  return %exp, %log, %log1p, %expm1, %tanh, %erf
      : tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>,
        tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>
}
