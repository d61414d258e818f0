// A loop that reads chunks of an earlier value (ckpt-convolution-to-gemm's
// loops over images read the images, or the output gradient, a slice at a
// time) only reads that value's buffer: the slices inside its body are
// views of it, but tensors leave a loop through its results alone. Grouped
// with the value as one planner node (as it was), the loop joined buffers
// from the forward to the backward into one node placed at the loop: the
// planner's model then allocated the forward value only in the backward,
// its baseline peak was not the program's, and on CNNs whole stages merged
// into nodes of 3x the step's peak.
//
// RUN: ckpt-opt %s --ckpt-remat="budget=0.99 report=-" -o /dev/null | FileCheck %s
// CHECK: "baseline_peak_bytes": [[PEAK:[0-9]+]]
// CHECK: "planner_model": {
// CHECK-NEXT: "baseline_peak_bytes": [[PEAK]]

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @loss_grad(%a: tensor<256x256xf32>, %w: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x256xf32>
  %x = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<256x256xf32>) outs(%e0 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %z = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<256x256xf32>) outs(%e2 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %g = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%z, %y : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e3 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %r = arith.subf %in, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  // The backward: %x times %w, 64 rows at a time, into %acc.
  %e4 = tensor.empty() : tensor<256x256xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %acc = scf.for %i = %c0 to %c256 step %c64 iter_args(%part = %acc0) -> (tensor<256x256xf32>) {
    %rows = tensor.extract_slice %x[%i, 0] [64, 256] [1, 1] : tensor<256x256xf32> to tensor<64x256xf32>
    %out = tensor.extract_slice %part[%i, 0] [64, 256] [1, 1] : tensor<256x256xf32> to tensor<64x256xf32>
    %p = linalg.matmul ins(%rows, %w : tensor<64x256xf32>, tensor<256x256xf32>) outs(%out : tensor<64x256xf32>) -> tensor<64x256xf32>
    %next = tensor.insert_slice %p into %part[%i, 0] [64, 256] [1, 1] : tensor<64x256xf32> into tensor<256x256xf32>
    scf.yield %next : tensor<256x256xf32>
  }
  %e5 = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %g : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e5 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %s = arith.addf %in, %in1 : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
