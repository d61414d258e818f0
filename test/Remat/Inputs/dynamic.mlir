func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %e = math.exp %a : tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}
