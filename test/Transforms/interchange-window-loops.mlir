// RUN: ckpt-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(ckpt-interchange-window-loops))" | FileCheck %s
// ckpt-cpu-pipeline runs it (on buffers, before the loops), except with
// gpu-mapping, whose block and thread loops are made before it would run.
// RUN: ckpt-opt %s --ckpt-cpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-cpu-pipeline{gpu-mapping=1})" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU-MAPPING
// PIPELINE: one-shot-bufferize
// PIPELINE: ckpt-interchange-window-loops
// PIPELINE: convert-linalg-to
// GPU-MAPPING-NOT: ckpt-interchange-window-loops

// Tests that a depthwise convolution (as generalized: loops n, oh, ow, c,
// kh, kw) runs its output columns innermost: ow indexes the innermost
// dimension of the input (ow + kw) and of the output, kw only the input's.
// The other loops keep their order; the body is unchanged.
// CHECK-DAG:   #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1 + d3, d4 + d5)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d5)>
// CHECK-LABEL: func.func @depthwise
// CHECK:         linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @depthwise(%x: memref<2x8x18x18xf32>, %w: memref<8x3x3xf32>, %y: memref<2x8x16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>,
                                   affine_map<(n, oh, ow, c, kh, kw) -> (c, kh, kw)>,
                                   affine_map<(n, oh, ow, c, kh, kw) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<2x8x18x18xf32>, memref<8x3x3xf32>) outs(%y : memref<2x8x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a grouped weight gradient, whose innermost reduction loop runs
// over the output gradient's 16 columns (the input's and the filter's
// innermost index), is left alone: the output's columns (3 kernel
// positions) touch as many contiguous operands but are shorter.
// CHECK-LABEL: func.func @grouped_weight_gradient
// CHECK:         iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME:    ins(%arg0, %arg1
func.func @grouped_weight_gradient(%x: memref<1x4x2x18x18xf32>, %dy: memref<4x1x2x16x16xf32>, %g: memref<1x4x1x3x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, g, f, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>,
                                   affine_map<(n, g, f, oh, ow, c, kh, kw) -> (g, f, c, kh, kw)>,
                                   affine_map<(n, g, f, oh, ow, c, kh, kw) -> (n, g, f, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %dy : memref<1x4x2x18x18xf32>, memref<4x1x2x16x16xf32>) outs(%g : memref<1x4x1x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that generics without a window input (a channel reduction, as
// BatchNorm's statistics) are left alone, whatever their loop order.
// CHECK-LABEL: func.func @no_window
// CHECK:         iterator_types = ["reduction", "parallel", "reduction", "reduction"]
func.func @no_window(%x: memref<2x8x16x16xf32>, %s: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : memref<2x8x16x16xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    linalg.yield %t : f32
  }
  return
}
