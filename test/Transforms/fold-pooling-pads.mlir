// RUN: ckpt-opt %s --split-input-file --ckpt-fold-pooling-pads | FileCheck %s

// A max pool (3x3, stride 2, padding 1) and PyTorch's indices of it read
// the -inf padded copy of their input as an input and through
// tensor.extract: both read the input itself, through bounds checks, and
// the copy is gone.
// CHECK-LABEL: func.func @max_pool_with_indices
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x8x8xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<3x3xf32>)
// CHECK:           arith.cmpi sge
// CHECK:           arith.cmpi slt
// CHECK:           %[[V:.*]] = tensor.extract %[[X]]
// CHECK:           %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK:           %[[IN:.*]] = arith.select %{{.*}}, %[[V]], %[[NEG]]
// CHECK:           arith.maximumf %{{.*}}, %[[IN]]
// CHECK:         linalg.generic {{.*}} ins(%[[MAX]], %{{.*}} : tensor<2x3x4x4xf32>, tensor<3x3xi64>)
// CHECK:           tensor.extract %[[X]]
// CHECK:           arith.select
// CHECK:           arith.cmpf oeq
#input = affine_map<(n, c, h, w, i, j) -> (n, c, h * 2 + i, w * 2 + j)>
#window = affine_map<(n, c, h, w, i, j) -> (i, j)>
#output = affine_map<(n, c, h, w, i, j) -> (n, c, h, w)>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @max_pool_with_indices(%x: tensor<2x3x8x8xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x4x4xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %none = arith.constant -1 : i64
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x3x4x4xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  %max = linalg.generic {indexing_maps = [#input, #window, #output],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : tensor<2x3x10x10xf32>, tensor<3x3xf32>) outs(%init : tensor<2x3x4x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4x4xf32>
  %wi = tensor.empty() : tensor<3x3xi64>
  %ei = tensor.empty() : tensor<2x3x4x4xi64>
  %initi = linalg.fill ins(%none : i64) outs(%ei : tensor<2x3x4x4xi64>) -> tensor<2x3x4x4xi64>
  %indices = linalg.generic {indexing_maps = [#output, #window, #output],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%max, %wi : tensor<2x3x4x4xf32>, tensor<3x3xi64>) outs(%initi : tensor<2x3x4x4xi64>) {
  ^bb0(%m: f32, %unused: i64, %out: i64):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %i = linalg.index 4 : index
    %w2 = linalg.index 3 : index
    %j = linalg.index 5 : index
    %hh = arith.muli %h, %c2 : index
    %row = arith.addi %hh, %i : index
    %ww = arith.muli %w2, %c2 : index
    %col = arith.addi %ww, %j : index
    %v = tensor.extract %p[%n, %c, %row, %col] : tensor<2x3x10x10xf32>
    %hit = arith.cmpf oeq, %v, %m : f32
    %flat = arith.muli %row, %c10 : index
    %pos = arith.addi %flat, %col : index
    %pos64 = arith.index_cast %pos : index to i64
    %first = arith.cmpi eq, %out, %none : i64
    %take = arith.andi %hit, %first : i1
    %r = arith.select %take, %pos64, %out : i64
    linalg.yield %r : i64
  } -> tensor<2x3x4x4xi64>
  return %max, %indices : tensor<2x3x4x4xf32>, tensor<2x3x4x4xi64>
}

// -----

// Zero padding (a convolution's, depthwise ones included) and a pad read by
// anything else than generics are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK:         tensor.pad
// CHECK:         tensor.pad
#input = affine_map<(n, c, h, w, i, j) -> (n, c, h + i, w + j)>
#window = affine_map<(n, c, h, w, i, j) -> (c, i, j)>
#output = affine_map<(n, c, h, w, i, j) -> (n, c, h, w)>
func.func @left_alone(%x: tensor<2x3x8x8xf32>, %f: tensor<3x3x3xf32>) -> (tensor<2x3x8x8xf32>, tensor<2x3x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
  %e = tensor.empty() : tensor<2x3x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %y = linalg.generic {indexing_maps = [#input, #window, #output],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %f : tensor<2x3x10x10xf32>, tensor<3x3x3xf32>) outs(%init : tensor<2x3x8x8xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %m = arith.mulf %in, %k : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x8x8xf32>
  %q = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
  return %y, %q : tensor<2x3x8x8xf32>, tensor<2x3x10x10xf32>
}
