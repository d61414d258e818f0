// IREE 3.13's CUDA target: a reduction whose body combines its input with a
// scalar before accumulating (here a row sum of x * c, as a layer norm's
// mean or a scaled loss is written) fails to compile:
//
//   iree-compile --iree-hal-target-device=cuda --iree-cuda-target=sm_80 \
//     reduction-with-scalar.mlir -o /dev/null
//   error: 'func.func' op failed to distribute
//
// The scalar may be a constant or a runtime value; an elementwise producer
// that multiplies by a scalar fails the same way once IREE fuses it into the
// reduction's dispatch. The same reduction without the scalar compiles
// (reduction-without-scalar.mlir), as does this one for IREE's CPU target.
// Every zoo step in docs/IreeCudaCoverage.md fails here: their losses and
// layer norms scale what they sum by constants.
func.func @row_sum_scaled(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.015625 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %scaled = arith.mulf %in, %scale : f32
    %next = arith.addf %acc, %scaled : f32
    linalg.yield %next : f32
  } -> tensor<64xf32>
  return %sum : tensor<64xf32>
}
