// A forward value read in the backward through a reshape (importers write
// the backward's views of saved activations as collapse_shape and
// expand_shape) shares its buffer with the view, so both are one planner
// node; the node is placed at the op that computes it, not at the view.
// Placed at the view, the planner's model kept what the computation reads
// (%big) alive into the backward: its baseline peak exceeded the program's
// and its plans were built against a peak that does not exist (on CNNs,
// the max-pool indices' view kept the padded activations alive).
//
// RUN: ckpt-opt %s --ckpt-remat="budget=0.99 report=-" -o /dev/null | FileCheck %s
// CHECK: "baseline_peak_bytes": [[PEAK:[0-9]+]]
// CHECK: "planner_model": {
// CHECK-NEXT: "baseline_peak_bytes": [[PEAK]]

#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @loss_grad(%a: tensor<256x256xf32>) -> tensor<65536xf32> {
  %e0 = tensor.empty() : tensor<256x256xf32>
  %big = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<256x256xf32>) outs(%e0 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %x = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%big : tensor<256x256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e2 = tensor.empty() : tensor<256x256xf32>
  %p = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%e2 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e3 = tensor.empty() : tensor<256x256xf32>
  %q = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<256x256xf32>) outs(%e3 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %e4 = tensor.empty() : tensor<256x256xf32>
  %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%q, %p : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e4 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %r = arith.subf %in, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %v = tensor.collapse_shape %x [[0, 1]] : tensor<256x256xf32> into tensor<65536xf32>
  %w = tensor.collapse_shape %s [[0, 1]] : tensor<256x256xf32> into tensor<65536xf32>
  %e5 = tensor.empty() : tensor<65536xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v, %w : tensor<65536xf32>, tensor<65536xf32>) outs(%e5 : tensor<65536xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %r = arith.mulf %in, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<65536xf32>
  return %g : tensor<65536xf32>
}
