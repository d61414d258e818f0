func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @p(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
