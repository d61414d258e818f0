// RUN: ckpt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(ckpt-forward-windows))" | FileCheck %s

// Tests that a convolution's input gradient, reading the output gradient
// through a window that runs backwards over the reduction loops kh, kw
// (d1 - d4 + 2), reads it forwards over kh' = 2 - kh, and the filter,
// indexed by kh and kw plainly, through a copy reversed along them.
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d3, d6)>
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>
// CHECK-LABEL: func.func @input_gradient
// CHECK:         %[[REV:.*]] = linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<3x3x2x4xf32>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK:           %[[R0:.*]] = arith.subi %{{.*}}, %[[I0]] : index
// CHECK:           %[[I1:.*]] = linalg.index 1 : index
// CHECK:           %[[R1:.*]] = arith.subi %{{.*}}, %[[I1]] : index
// CHECK:           %[[I2:.*]] = linalg.index 2 : index
// CHECK:           %[[I3:.*]] = linalg.index 3 : index
// CHECK:           tensor.extract %{{.*}}[%[[R0]], %[[R1]], %[[I2]], %[[I3]]]
// CHECK:         linalg.generic {indexing_maps = [#[[FILTER]], #[[WINDOW]], #{{.*}}]
// CHECK-SAME:      ins(%[[REV]], %{{.*}} : tensor<3x3x2x4xf32>, tensor<1x8x8x4xf32>)
func.func @input_gradient(%w: tensor<3x3x2x4xf32>, %g: tensor<1x8x8x4xf32>,
                          %init: tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d3, d6)>,
                       affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 - d4 + 2, d2 - d5 + 2, d6)>,
                       affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel",
                        "reduction", "reduction", "reduction"]}
      ins(%w, %g : tensor<3x3x2x4xf32>, tensor<1x8x8x4xf32>) outs(%init : tensor<1x6x6x2xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x6x6x2xf32>
  return %r : tensor<1x6x6x2xf32>
}

// -----

// Tests that forward windows, and a backwards loop also read in another
// form (d4 * 2), are left as they are.
// CHECK:       #{{.*}} = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK:       #{{.*}} = affine_map<(d0, d1) -> (d0 - d1 + 2)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     tensor.extract
func.func @left_alone(%x: tensor<10xf32>, %k: tensor<3xf32>, %init: tensor<8xf32>,
                      %y: tensor<10xf32>, %init2: tensor<4xf32>)
    -> (tensor<8xf32>, tensor<4xf32>) {
  %a = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>,
                       affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x, %k : tensor<10xf32>, tensor<3xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %b = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0 - d1 + 2)>, affine_map<(d0, d1) -> (d1 * 2)>,
                       affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%y, %y, %k : tensor<10xf32>, tensor<10xf32>, tensor<3xf32>) outs(%init2 : tensor<4xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32, %o: f32):
    %p = arith.mulf %u, %v : f32
    %q = arith.mulf %p, %w : f32
    %s = arith.addf %o, %q : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %a, %b : tensor<8xf32>, tensor<4xf32>
}
