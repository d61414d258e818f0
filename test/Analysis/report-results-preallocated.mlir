// Tests that `ckpt.results_preallocated` counts a function's results from
// its entry (its caller allocates them before the call, as IREE does):
// the result is alive together with the large temporary computed before
// it.
// RUN: ckpt-opt %s --split-input-file --ckpt-report="format=json" -o /dev/null | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: "name": "on_demand"
// CHECK:       "peak_bytes": 33024
func.func @on_demand(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%c : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: "name": "preallocated"
// CHECK:       "peak_bytes": 49408
func.func @preallocated(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {ckpt.results_preallocated} {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %big = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64xf32>
  %z = linalg.fill ins(%c : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%big : tensor<64x64xf32>) outs(%z : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

