// The control for reduction-with-scalar.mlir: the same row reduction over
// x * x (no scalar in the body) compiles for IREE 3.13's CUDA target.
func.func @row_sum_squares(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %square = arith.mulf %in, %in : f32
    %next = arith.addf %acc, %square : f32
    linalg.yield %next : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}
