// RUN: ckpt-opt %s --ckpt-convolution-to-gemm --split-input-file | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-tensor-prep=convolutions-to-gemm=true | FileCheck %s --check-prefix=PREP
// RUN: ckpt-opt %s --split-input-file --ckpt-tensor-prep | FileCheck %s --check-prefix=NOPREP
// RUN: ckpt-opt %s --split-input-file --ckpt-convolution-to-gemm=patch-bytes=1000 | FileCheck %s --check-prefix=CHUNK
// RUN: not ckpt-opt %s --ckpt-convolution-to-gemm=patch-bytes=0 2>&1 | FileCheck %s --check-prefix=BAD-BYTES
// BAD-BYTES: error: ckpt-convolution-to-gemm: patch-bytes must be positive, got 0

// In the tensor preparation (what ckpt-cpu-pipeline{gemm=blas} runs), the
// fusion keeps the convolutions named and the rewrite follows it: a matmul,
// not a convolution generic, reaches the memory analysis. Without the
// option the convolution is generalized as before.
// PREP-LABEL:   func.func @nchw_strided_dilated
// PREP-NOT:     linalg.conv_2d
// PREP:         linalg.matmul
// PREP-LABEL:   func.func @nhwc
// PREP-NOT:     linalg.conv_2d
// PREP:         linalg.matmul
// NOPREP-LABEL: func.func @nchw_strided_dilated
// NOPREP-NOT:   linalg.matmul
// NOPREP-NOT:   linalg.conv_2d
// NOPREP:       return

// An NCHW convolution from a zero fill: the patches are copied as
// (C, KH, KW, N, OH, OW) with the window map, multiplied as (F x C*KH*KW)
// by (C*KH*KW x N*OH*OW) into a fresh fill of the product's shape, and
// transposed back to NCHW. Every new op takes the phase; the transpose,
// which produces the result, takes the name; other attributes are dropped.
// CHECK-DAG:   #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d4 * 2 + d1 * 3, d5 * 2 + d2 * 3)>
// CHECK-LABEL: func.func @nchw_strided_dilated
// CHECK:         %[[FILTERS:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK:         %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<4x18xf32>
// CHECK:         %[[COL:.*]] = linalg.generic {indexing_maps = [#[[READ]], {{.*}}]
// CHECK-SAME:      ins(%arg0 : tensor<2x3x11x11xf32>) outs(%{{.*}} : tensor<3x3x3x2x3x3xf32>)
// CHECK-SAME:      attrs = {ckpt.phase = #ckpt.phase<backward>}
// CHECK:         %[[PATCHES:.*]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<3x3x3x2x3x3xf32> into tensor<27x18xf32>
// CHECK:         %[[PRODUCT:.*]] = linalg.matmul {{.*}}ins(%[[FILTERS]], %[[PATCHES]] : tensor<4x27xf32>, tensor<27x18xf32>) outs(%[[ZERO]] : tensor<4x18xf32>)
// CHECK:         %[[GRID:.*]] = tensor.expand_shape %[[PRODUCT]] {{\[}}[0], [1, 2, 3]] output_shape [4, 2, 3, 3]
// CHECK:         %[[OUT:.*]] = linalg.transpose ins(%[[GRID]] : tensor<4x2x3x3xf32>) outs(%{{.*}} : tensor<2x4x3x3xf32>) permutation = [1, 0, 2, 3]
// CHECK-SAME:      {ckpt.name = "conv", ckpt.phase = #ckpt.phase<backward>}
// CHECK-NOT:     other.attr
// CHECK:         return %[[OUT]]
func.func @nchw_strided_dilated(%x: tensor<2x3x11x11xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x3x3xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x3x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {ckpt.name = "conv", ckpt.phase = #ckpt.phase<backward>, dilations = dense<3> : tensor<2xi64>,
                                 strides = dense<2> : tensor<2xi64>, other.attr = 1 : i32}
         ins(%x, %w : tensor<2x3x11x11xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// -----

// An initial value that is not a fill (a bias) is transposed into the
// product's layout and accumulated into; with one image, reshapes replace
// both transposes.
// CHECK-LABEL: func.func @nchw_bias
// CHECK:         %[[INIT:.*]] = linalg.transpose ins(%arg2 : tensor<2x4x4x4xf64>) outs(%{{.*}} : tensor<4x2x4x4xf64>) permutation = [1, 0, 2, 3]
// CHECK:         %[[ACC:.*]] = tensor.collapse_shape %[[INIT]] {{\[}}[0], [1, 2, 3]] : tensor<4x2x4x4xf64> into tensor<4x32xf64>
// CHECK:         linalg.matmul {{.*}}outs(%[[ACC]] : tensor<4x32xf64>)
// CHECK-LABEL: func.func @nchw_single_image
// CHECK:         %[[ACC1:.*]] = tensor.collapse_shape %arg2 {{\[}}[0, 1], [2, 3]] : tensor<1x4x4x4xf32> into tensor<4x16xf32>
// CHECK:         %[[P1:.*]] = linalg.matmul {{.*}}outs(%[[ACC1]] : tensor<4x16xf32>)
// CHECK:         %[[R1:.*]] = tensor.expand_shape %[[P1]] {{\[}}[0, 1], [2, 3]] output_shape [1, 4, 4, 4]
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[R1]]
func.func @nchw_bias(%x: tensor<2x3x6x6xf64>, %w: tensor<4x3x3x3xf64>, %b: tensor<2x4x4x4xf64>) -> tensor<2x4x4x4xf64> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x6x6xf64>, tensor<4x3x3x3xf64>) outs(%b : tensor<2x4x4x4xf64>) -> tensor<2x4x4x4xf64>
  return %y : tensor<2x4x4x4xf64>
}
func.func @nchw_single_image(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

// NHWC/HWCF: the patches as (N, OH, OW, KH, KW, C) times the filter as
// (KH*KW*C x F) is the output as laid out, no transposes.
// CHECK-DAG:   #[[NHWC:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d3, d2 + d4, d5)>
// CHECK-LABEL: func.func @nhwc
// CHECK:         %[[F:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : tensor<3x3x3x8xf32> into tensor<27x8xf32>
// CHECK:         %[[I:.*]] = tensor.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : tensor<2x4x4x8xf32> into tensor<32x8xf32>
// CHECK:         %[[C:.*]] = linalg.generic {indexing_maps = [#[[NHWC]], {{.*}}]
// CHECK-SAME:      outs(%{{.*}} : tensor<2x4x4x3x3x3xf32>)
// CHECK:         %[[P:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<2x4x4x3x3x3xf32> into tensor<32x27xf32>
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}}ins(%[[P]], %[[F]] : tensor<32x27xf32>, tensor<27x8xf32>) outs(%[[I]] : tensor<32x8xf32>)
// CHECK-NOT:     linalg.transpose
func.func @nhwc(%x: tensor<2x6x6x3xf32>, %w: tensor<3x3x3x8xf32>, %b: tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32> {
  %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<2x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%b : tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  return %y : tensor<2x4x4x8xf32>
}

// -----

// A fill the fusion made a generic of (no inputs, a value from outside) is
// a fill too: filled anew in the product's layout, not transposed into it.
// CHECK-LABEL: func.func @nchw_generic_fill
// CHECK:         %[[Z:.*]] = linalg.fill ins(%cst : f32) outs(%{{.*}} : tensor<4x18xf32>)
// CHECK:         linalg.matmul {{.*}}outs(%[[Z]] : tensor<4x18xf32>)
// CHECK:         linalg.transpose
// CHECK-NOT:     linalg.transpose
// CHECK:         return
func.func @nchw_generic_fill(%x: tensor<2x3x5x5xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x3x3xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x3x3xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x4x3x3xf32>) {
  ^bb0(%out: f32):
    linalg.yield %cst : f32
  } -> tensor<2x4x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// The generic form of a fill (a scalar input) likewise.
// CHECK-LABEL: func.func @nchw_scalar_input_fill
// CHECK:         %[[Z:.*]] = linalg.fill ins(%arg2 : f32) outs(%{{.*}} : tensor<4x18xf32>)
// CHECK:         linalg.matmul {{.*}}outs(%[[Z]] : tensor<4x18xf32>)
// CHECK:         linalg.transpose
// CHECK-NOT:     linalg.transpose
// CHECK:         return
func.func @nchw_scalar_input_fill(%x: tensor<2x3x5x5xf32>, %w: tensor<4x3x3x3xf32>, %v: f32) -> tensor<2x4x3x3xf32> {
  %e = tensor.empty() : tensor<2x4x3x3xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> ()>, affine_map<(n, f, h, w) -> (n, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : f32) outs(%e : tensor<2x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x5x5xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// Patch matrices above patch-bytes (here 1000 B; one image's patches take
// 972 B) are built one chunk of images at a time and multiplied into the
// chunk's columns of the product, which the loop carries.
// CHUNK-LABEL: func.func @nchw_strided_dilated
// CHUNK:         %[[Z:.*]] = linalg.fill {{.*}} -> tensor<4x18xf32>
// CHUNK:         %[[L:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<4x18xf32>)
// CHUNK:           tensor.extract_slice %arg0[%[[N]], 0, 0, 0] [1, 3, 11, 11] [1, 1, 1, 1]
// CHUNK:           %[[COLUMN:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHUNK:           %[[S:.*]] = tensor.extract_slice %[[ACC]][0, %[[COLUMN]]] [4, 9] [1, 1]
// CHUNK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3x3x1x3x3xf32>)
// CHUNK:           %[[M:.*]] = linalg.matmul {{.*}} outs(%[[S]] : tensor<4x9xf32>)
// CHUNK:           tensor.insert_slice %[[M]] into %[[ACC]][0, %[[COLUMN]]] [4, 9] [1, 1]
// CHUNK:         {ckpt.phase = #ckpt.phase<backward>}
// CHUNK:         tensor.expand_shape %[[L]]
// CHUNK:         linalg.transpose
// NHWC: chunks of rows of the product.
// CHUNK-LABEL: func.func @nhwc
// CHUNK:         scf.for
// CHUNK:           tensor.extract_slice %arg0[%{{.*}}, 0, 0, 0] [1, 6, 6, 3] [1, 1, 1, 1]
// CHUNK:           %[[R:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, 0] [16, 8] [1, 1]
// CHUNK:           linalg.matmul {{.*}} : tensor<16x27xf32>, tensor<27x8xf32>) outs(%[[R]] : tensor<16x8xf32>)

// -----

// Tests that a weight-gradient-shaped convolution (a 2x2 output window, a
// 5x5 kernel) whose chunks of images would make products 4 columns wide is
// chunked over its input channels instead (800 B of patches per channel):
// each chunk's patches times its filter columns (a slice of the filter
// matrix, 25 columns a channel) are added into the whole product, 8 columns
// wide. Under the default patch-bytes it is one GEMM.
// CHECK-LABEL: func.func @weight_gradient_shape
// CHECK-NOT:     scf.for
// CHECK:         linalg.matmul {{.*}} : tensor<3x100xf32>, tensor<100x8xf32>) outs(%{{.*}} : tensor<3x8xf32>)
// CHUNK-LABEL: func.func @weight_gradient_shape
// CHUNK:         %[[FILTERS:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<3x4x5x5xf32> into tensor<3x100xf32>
// CHUNK:         %[[Z:.*]] = linalg.fill {{.*}} -> tensor<3x8xf32>
// CHUNK:         %[[L:.*]] = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<3x8xf32>)
// CHUNK:           tensor.extract_slice %arg0[0, %[[C]], 0, 0] [2, 1, 6, 6] [1, 1, 1, 1]
// CHUNK:           %[[FIRST:.*]] = arith.muli %[[C]], %{{.*}} : index
// CHUNK:           %[[COLUMNS:.*]] = tensor.extract_slice %[[FILTERS]][0, %[[FIRST]]] [3, 25] [1, 1]
// CHUNK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x5x5x2x2x2xf32>)
// CHUNK:           %[[M:.*]] = linalg.matmul ins(%[[COLUMNS]], %{{.*}} : tensor<3x25xf32>, tensor<25x8xf32>) outs(%[[ACC]] : tensor<3x8xf32>)
// CHUNK:           scf.yield %[[M]]
// CHUNK:         tensor.expand_shape %[[L]]
// CHUNK:         linalg.transpose
func.func @weight_gradient_shape(%x: tensor<2x4x6x6xf32>, %w: tensor<3x4x5x5xf32>) -> tensor<2x3x2x2xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x2x2xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x4x6x6xf32>, tensor<3x4x5x5xf32>) outs(%z : tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>
  return %y : tensor<2x3x2x2xf32>
}

// -----

// Images of at least 256 output positions: one image at a time, its
// product (F x OH*OW) written into its block of the output as laid out,
// the bias included; no transpose of the initial value or of the result.
// CHECK-LABEL: func.func @images_in_place
// CHECK:         %[[FILTERS:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK:         %[[L:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %arg2) -> (tensor<2x4x16x16xf32>)
// CHECK:           tensor.extract_slice %arg0[%[[N]], 0, 0, 0] [1, 3, 18, 18] [1, 1, 1, 1]
// CHECK:           %[[BLOCK:.*]] = tensor.extract_slice %[[OUT]][%[[N]], 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK:           %[[ACC:.*]] = tensor.collapse_shape %[[BLOCK]] {{\[}}[0, 1], [2, 3]] : tensor<1x4x16x16xf32> into tensor<4x256xf32>
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3x3x1x16x16xf32>)
// CHECK:           %[[M:.*]] = linalg.matmul ins(%[[FILTERS]], %{{.*}} : tensor<4x27xf32>, tensor<27x256xf32>) outs(%[[ACC]] : tensor<4x256xf32>)
// CHECK:           %[[IMAGE:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2, 3]] output_shape [1, 4, 16, 16]
// CHECK:           tensor.insert_slice %[[IMAGE]] into %[[OUT]][%[[N]], 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[L]]
func.func @images_in_place(%x: tensor<2x3x18x18xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x18x18xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  return %y : tensor<2x4x16x16xf32>
}

// -----

// A weight gradient as importers write it: the convolution of the
// activations and of the output gradient, both with images and channels
// swapped by transposes. Neither transpose is made: the patches are read
// from the activations where they are (the map swaps the first two
// indices), and one image at a time its output gradient, a block of the
// tensor as stored (F x OH*OW), multiplies its patches into the sum.
// CHECK-DAG:   #[[SWAPPED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4, d2 + d5)>
// CHECK-LABEL: func.func @weight_gradient_of_transposes
// CHECK-NOT:     linalg.transpose ins(%arg
// CHECK:         %[[Z:.*]] = linalg.fill {{.*}} -> tensor<4x27xf32>
// CHECK:         %[[L:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<4x27xf32>)
// CHECK:           %[[IMAGE:.*]] = tensor.extract_slice %arg0[%[[N]], 0, 0, 0] [1, 3, 18, 18] [1, 1, 1, 1]
// CHECK:           %[[G:.*]] = tensor.extract_slice %arg1[%[[N]], 0, 0, 0] [1, 4, 16, 16] [1, 1, 1, 1]
// CHECK:           %[[COLUMNS:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1], [2, 3]] : tensor<1x4x16x16xf32> into tensor<4x256xf32>
// CHECK:           linalg.generic {indexing_maps = [#[[SWAPPED]], {{.*}}]{{.*}} ins(%[[IMAGE]] : tensor<1x3x18x18xf32>) outs(%{{.*}} : tensor<1x16x16x3x3x3xf32>)
// CHECK:           %[[M:.*]] = linalg.matmul ins(%[[COLUMNS]], %{{.*}} : tensor<4x256xf32>, tensor<256x27xf32>) outs(%[[ACC]] : tensor<4x27xf32>)
// CHECK:           scf.yield %[[M]]
// CHECK:         %[[GRID:.*]] = tensor.expand_shape %[[L]]
// CHECK:         linalg.transpose ins(%[[GRID]] : tensor<4x3x3x3xf32>)
func.func @weight_gradient_of_transposes(%x: tensor<2x3x18x18xf32>, %g: tensor<2x4x16x16xf32>) -> tensor<3x4x3x3xf32> {
  %cst = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<3x2x18x18xf32>
  %xt = linalg.transpose ins(%x : tensor<2x3x18x18xf32>) outs(%ex : tensor<3x2x18x18xf32>) permutation = [1, 0, 2, 3]
  %eg = tensor.empty() : tensor<4x2x16x16xf32>
  %gt = linalg.transpose ins(%g : tensor<2x4x16x16xf32>) outs(%eg : tensor<4x2x16x16xf32>) permutation = [1, 0, 2, 3]
  %e = tensor.empty() : tensor<3x4x3x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<3x4x3x3xf32>) -> tensor<3x4x3x3xf32>
  %dw = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xt, %gt : tensor<3x2x18x18xf32>, tensor<4x2x16x16xf32>) outs(%z : tensor<3x4x3x3xf32>) -> tensor<3x4x3x3xf32>
  return %dw : tensor<3x4x3x3xf32>
}

// -----

// The same weight gradient swapped back into the filters' layout (what the
// decomposition does with it): the product, (F) x (C*KH*KW), is that
// layout already, so no transpose is made at all.
// CHECK-LABEL: func.func @weight_gradient_in_filter_layout
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[L:.*]] = scf.for
// CHECK:         %[[W:.*]] = tensor.expand_shape %[[L]] {{\[}}[0], [1, 2, 3]] output_shape [4, 3, 3, 3] : tensor<4x27xf32> into tensor<4x3x3x3xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[W]]
func.func @weight_gradient_in_filter_layout(%x: tensor<2x3x18x18xf32>, %g: tensor<2x4x16x16xf32>) -> tensor<4x3x3x3xf32> {
  %cst = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<3x2x18x18xf32>
  %xt = linalg.transpose ins(%x : tensor<2x3x18x18xf32>) outs(%ex : tensor<3x2x18x18xf32>) permutation = [1, 0, 2, 3]
  %eg = tensor.empty() : tensor<4x2x16x16xf32>
  %gt = linalg.transpose ins(%g : tensor<2x4x16x16xf32>) outs(%eg : tensor<4x2x16x16xf32>) permutation = [1, 0, 2, 3]
  %e = tensor.empty() : tensor<3x4x3x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<3x4x3x3xf32>) -> tensor<3x4x3x3xf32>
  %dw = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xt, %gt : tensor<3x2x18x18xf32>, tensor<4x2x16x16xf32>) outs(%z : tensor<3x4x3x3xf32>) -> tensor<3x4x3x3xf32>
  %ew = tensor.empty() : tensor<4x3x3x3xf32>
  %w = linalg.transpose ins(%dw : tensor<3x4x3x3xf32>) outs(%ew : tensor<4x3x3x3xf32>) permutation = [1, 0, 2, 3]
  return %w : tensor<4x3x3x3xf32>
}

// -----

// A 1x1 convolution's input gradient as importers write it: the forward
// filters with their channel dimensions swapped (here by the generic a
// generalized transpose is). Each image's patches are the image itself and
// the product reads the filters transposed where they are: no copy of the
// activations, of the filters or of the result.
// CHECK-LABEL: func.func @pointwise_input_gradient
// CHECK-SAME:    (%[[G:.*]]: tensor<4x16x6x6xf32>, %[[W:.*]]: tensor<16x8x1x1xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[F:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<16x8x1x1xf32> into tensor<16x8xf32>
// CHECK:         scf.for
// CHECK:           %[[IMAGE:.*]] = tensor.extract_slice %[[G]]
// CHECK-NOT:       linalg.generic
// CHECK:           %[[P:.*]] = tensor.collapse_shape %[[IMAGE]] {{\[}}[0, 1], [2, 3]] : tensor<1x16x6x6xf32> into tensor<16x36xf32>
// CHECK:           linalg.matmul indexing_maps = [#[[A:.*]], #{{.*}}, #{{.*}}] ins(%[[F]], %[[P]] : tensor<16x8xf32>, tensor<16x36xf32>)
// CHECK-NOT:     linalg.transpose
#swap = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pointwise_input_gradient(%g: tensor<4x16x6x6xf32>, %w: tensor<16x8x1x1xf32>) -> tensor<4x8x6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<8x16x1x1xf32>
  %wt = linalg.generic {indexing_maps = [#swap, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<16x8x1x1xf32>) outs(%ew : tensor<8x16x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x16x1x1xf32>
  %e = tensor.empty() : tensor<4x8x6x6xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
  %dx = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%g, %wt : tensor<4x16x6x6xf32>, tensor<8x16x1x1xf32>) outs(%z : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
  return %dx : tensor<4x8x6x6xf32>
}

// -----

// The same with the filters one tap of a 3x3 kernel (a strided
// convolution's input gradient, phase by phase): that slice is strided
// between channels once bufferized, no BLAS operand, so the swap copies it
// whole once and the product reads the copy.
// CHECK-LABEL: func.func @pointwise_input_gradient_of_a_tap
// CHECK:         %[[TAP:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 1] [16, 8, 1, 1] [1, 1, 1, 1]
// CHECK:         %[[WT:.*]] = linalg.generic {{.*}} ins(%[[TAP]] : tensor<16x8x1x1xf32>)
// CHECK:         %[[F:.*]] = tensor.collapse_shape %[[WT]] {{\[}}[0], [1, 2, 3]] : tensor<8x16x1x1xf32> into tensor<8x16xf32>
// CHECK:         scf.for
// CHECK:           linalg.matmul ins(%[[F]], %{{.*}} : tensor<8x16xf32>, tensor<16x36xf32>)
#tapswap = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#tapid = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pointwise_input_gradient_of_a_tap(%g: tensor<4x16x6x6xf32>, %w3: tensor<16x8x3x3xf32>) -> tensor<4x8x6x6xf32> {
  %cst = arith.constant 0.0 : f32
  %w = tensor.extract_slice %w3[0, 0, 1, 1] [16, 8, 1, 1] [1, 1, 1, 1] : tensor<16x8x3x3xf32> to tensor<16x8x1x1xf32>
  %ew = tensor.empty() : tensor<8x16x1x1xf32>
  %wt = linalg.generic {indexing_maps = [#tapswap, #tapid], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : tensor<16x8x1x1xf32>) outs(%ew : tensor<8x16x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x16x1x1xf32>
  %e = tensor.empty() : tensor<4x8x6x6xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
  %dx = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%g, %wt : tensor<4x16x6x6xf32>, tensor<8x16x1x1xf32>) outs(%z : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
  return %dx : tensor<4x8x6x6xf32>
}

// -----

// A 1x1 convolution's weight gradient on a small grid (8x8): the kernel is
// the whole image and the output 1x1, so each image's output gradient is
// the filter block, read where it is, one image at a time; the transposes
// (generics here) are left unread.
// CHECK-LABEL: func.func @pointwise_weight_gradient
// CHECK-SAME:    (%[[X:.*]]: tensor<16x32x8x8xf32>, %[[G:.*]]: tensor<16x8x8x8xf32>)
// CHECK:         scf.for {{.*}} to %c16
// CHECK:           tensor.extract_slice %[[X]]
// CHECK:           tensor.extract_slice %[[G]]
// CHECK:           linalg.matmul {{.*}} -> tensor<8x32xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         return
#swapped = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pointwise_weight_gradient(%x: tensor<16x32x8x8xf32>, %g: tensor<16x8x8x8xf32>) -> tensor<8x32x1x1xf32> {
  %cst = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<32x16x8x8xf32>
  %xt = linalg.generic {indexing_maps = [#swapped, #identity], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<16x32x8x8xf32>) outs(%ex : tensor<32x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x16x8x8xf32>
  %eg = tensor.empty() : tensor<8x16x8x8xf32>
  %gt = linalg.generic {indexing_maps = [#swapped, #identity], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g : tensor<16x8x8x8xf32>) outs(%eg : tensor<8x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x16x8x8xf32>
  %e = tensor.empty() : tensor<32x8x1x1xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<32x8x1x1xf32>) -> tensor<32x8x1x1xf32>
  %dw = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xt, %gt : tensor<32x16x8x8xf32>, tensor<8x16x8x8xf32>) outs(%z : tensor<32x8x1x1xf32>) -> tensor<32x8x1x1xf32>
  %ew = tensor.empty() : tensor<8x32x1x1xf32>
  %w = linalg.generic {indexing_maps = [#swapped, #identity], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dw : tensor<32x8x1x1xf32>) outs(%ew : tensor<8x32x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x32x1x1xf32>
  return %w : tensor<8x32x1x1xf32>
}

// -----

// Patches nine times the input (a 3x3 window) above 64 KiB are built a few
// images at a time even under patch-bytes: no more than the larger of the
// input and the output at once (here 128 KiB of 1.1 MiB: two images).
// CHECK-LABEL: func.func @patches_no_larger_than_the_input
// CHECK:         scf.for {{.*}} to %c16 step %c2
// CHECK:           tensor.empty() : tensor<32x3x3x2x8x8xf32>
func.func @patches_no_larger_than_the_input(%x: tensor<16x32x10x10xf32>, %w: tensor<8x32x3x3xf32>) -> tensor<16x8x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<16x8x8x8xf32>) -> tensor<16x8x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<16x32x10x10xf32>, tensor<8x32x3x3xf32>) outs(%z : tensor<16x8x8x8xf32>) -> tensor<16x8x8x8xf32>
  return %y : tensor<16x8x8x8xf32>
}

// -----

// Left alone: bf16 (BLAS has no bf16 GEMM), grouped convolutions, dynamic
// shapes.
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.matmul
func.func @left_alone(%x: tensor<2x3x6x6xbf16>, %w: tensor<4x3x3x3xbf16>, %b: tensor<2x4x4x4xbf16>,
                      %gx: tensor<2x2x3x6x6xf32>, %gw: tensor<2x4x3x3x3xf32>, %gb: tensor<2x2x4x4x4xf32>,
                      %dx: tensor<?x3x6x6xf32>, %dw: tensor<4x3x3x3xf32>, %db: tensor<?x4x4x4xf32>)
    -> (tensor<2x4x4x4xbf16>, tensor<2x2x4x4x4xf32>, tensor<?x4x4x4xf32>) {
  %y = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<2x3x6x6xbf16>, tensor<4x3x3x3xbf16>) outs(%b : tensor<2x4x4x4xbf16>) -> tensor<2x4x4x4xbf16>
  %g = linalg.conv_2d_ngchw_gfchw ins(%gx, %gw : tensor<2x2x3x6x6xf32>, tensor<2x4x3x3x3xf32>) outs(%gb : tensor<2x2x4x4x4xf32>) -> tensor<2x2x4x4x4xf32>
  %d = linalg.conv_2d_nchw_fchw ins(%dx, %dw : tensor<?x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%db : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
  return %y, %g, %d : tensor<2x4x4x4xbf16>, tensor<2x2x4x4x4xf32>, tensor<?x4x4x4xf32>
}
