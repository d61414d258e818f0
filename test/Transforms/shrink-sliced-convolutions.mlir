// RUN: ckpt-opt %s --ckpt-shrink-sliced-convolutions --split-input-file | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-tensor-prep=convolutions-to-gemm=true | FileCheck %s --check-prefix=PREP
// RUN: ckpt-opt %s --ckpt-cpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: ckpt-shrink-sliced-convolutions

// Tests that a weight-gradient-shaped convolution (stride 2 as dilation)
// read through a chain of slices from the origin is computed at the kept
// window only: the fill is made anew at the window's shape, the input is
// read as it is, the attributes (ckpt annotations included) are kept.
// CHECK-LABEL: func.func @weight_gradient_window
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<8x16x2x2xf32>
// CHECK:         %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<8x16x2x2xf32>)
// CHECK:         %[[W:.*]] = linalg.conv_2d_nchw_fchw {ckpt.name = "dw", dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME:      ins(%arg0, %arg1 : tensor<8x4x9x9xf32>, tensor<16x4x4x4xf32>) outs(%[[ZERO]] : tensor<8x16x2x2xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[W]]
// PREP-LABEL:  func.func @weight_gradient_window
// PREP:          linalg.matmul {{.*}} -> tensor<16x32xf32>
func.func @weight_gradient_window(%x: tensor<8x4x9x9xf32>, %dy: tensor<16x4x4x4xf32>) -> tensor<8x16x2x2xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x3x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<8x16x3x3xf32>) -> tensor<8x16x3x3xf32>
  %g = linalg.conv_2d_nchw_fchw {ckpt.name = "dw", dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %dy : tensor<8x4x9x9xf32>, tensor<16x4x4x4xf32>) outs(%z : tensor<8x16x3x3xf32>) -> tensor<8x16x3x3xf32>
  %s = tensor.extract_slice %g[0, 0, 0, 0] [8, 16, 2, 3] [1, 1, 1, 1] : tensor<8x16x3x3xf32> to tensor<8x16x2x3xf32>
  %w = tensor.extract_slice %s[0, 0, 0, 0] [8, 16, 2, 2] [1, 1, 1, 1] : tensor<8x16x2x3xf32> to tensor<8x16x2x2xf32>
  return %w : tensor<8x16x2x2xf32>
}

// -----

// Tests that an initial value that is not a fill (a bias) is sliced, and
// that an NHWC convolution shrinks in its spatial dimensions (1, 2).
// CHECK-LABEL: func.func @nhwc_bias
// CHECK:         %[[INIT:.*]] = tensor.extract_slice %arg2[0, 0, 0, 0] [2, 3, 2, 4] [1, 1, 1, 1]
// CHECK:         %[[Y:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[INIT]] : tensor<2x3x2x4xf32>) -> tensor<2x3x2x4xf32>
// CHECK:         return %[[Y]]
func.func @nhwc_bias(%x: tensor<2x6x6x3xf32>, %f: tensor<3x3x3x4xf32>, %b: tensor<2x4x4x4xf32>) -> tensor<2x3x2x4xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %f : tensor<2x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%b : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %s = tensor.extract_slice %y[0, 0, 0, 0] [2, 3, 2, 4] [1, 1, 1, 1] : tensor<2x4x4x4xf32> to tensor<2x3x2x4xf32>
  return %s : tensor<2x3x2x4xf32>
}

// -----

// Tests that slices the rewrite cannot take are left alone: one not from
// the origin, one that drops filters, one with a stride, and a convolution
// whose result has another reader.
// CHECK-LABEL: func.func @kept
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x4x4x4xf32>
// CHECK:         tensor.extract_slice {{.*}}[0, 0, 1, 0] [2, 4, 3, 3]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x4x4x4xf32>
// CHECK:         tensor.extract_slice {{.*}}[0, 0, 0, 0] [2, 2, 4, 4]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x4x4x4xf32>
// CHECK:         tensor.extract_slice {{.*}} [1, 1, 2, 2]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} -> tensor<2x4x4x4xf32>
// CHECK:         tensor.extract_slice {{.*}}[0, 0, 0, 0] [2, 4, 3, 3]
func.func @kept(%x: tensor<2x3x6x6xf32>, %f: tensor<4x3x3x3xf32>, %b: tensor<2x4x4x4xf32>)
    -> (tensor<2x4x3x3xf32>, tensor<2x2x4x4xf32>, tensor<2x4x2x2xf32>, tensor<2x4x3x3xf32>, tensor<2x4x4x4xf32>) {
  %y0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %f : tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %s0 = tensor.extract_slice %y0[0, 0, 1, 0] [2, 4, 3, 3] [1, 1, 1, 1] : tensor<2x4x4x4xf32> to tensor<2x4x3x3xf32>
  %y1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %f : tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %s1 = tensor.extract_slice %y1[0, 0, 0, 0] [2, 2, 4, 4] [1, 1, 1, 1] : tensor<2x4x4x4xf32> to tensor<2x2x4x4xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %f : tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %s2 = tensor.extract_slice %y2[0, 0, 0, 0] [2, 4, 2, 2] [1, 1, 2, 2] : tensor<2x4x4x4xf32> to tensor<2x4x2x2xf32>
  %y3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %f : tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %s3 = tensor.extract_slice %y3[0, 0, 0, 0] [2, 4, 3, 3] [1, 1, 1, 1] : tensor<2x4x4x4xf32> to tensor<2x4x3x3xf32>
  return %s0, %s1, %s2, %s3, %y3 : tensor<2x4x3x3xf32>, tensor<2x2x4x4xf32>, tensor<2x4x2x2xf32>, tensor<2x4x3x3xf32>, tensor<2x4x4x4xf32>
}

// -----

// Tests that a grouped (depthwise) weight gradient read through a collapse
// of groups and filters, then a window of its kernel positions, is computed
// at the window only: the slice moves before the collapse, onto the
// convolution, which then shrinks; a slice that cuts the merged dimension
// stays after the collapse.
// CHECK-LABEL: func.func @grouped_weight_gradient_window
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x6x1x3x3xf32>
// CHECK:         %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<1x6x1x3x3xf32>)
// CHECK:         %[[W:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME:      outs(%[[ZERO]] : tensor<1x6x1x3x3xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x6x1x3x3xf32> into tensor<1x6x3x3xf32>
// CHECK:         linalg.conv_2d_ngchw_gfchw {{.*}} -> tensor<1x6x1x4x4xf32>
// CHECK:         tensor.collapse_shape
// CHECK:         tensor.extract_slice {{.*}}[0, 0, 0, 0] [1, 3, 4, 4]
// CHECK:         return %[[C]]
func.func @grouped_weight_gradient_window(%x: tensor<1x6x8x10x10xf32>, %dy: tensor<6x1x8x4x4xf32>)
    -> (tensor<1x6x3x3xf32>, tensor<1x3x4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x1x4x4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x6x1x4x4xf32>) -> tensor<1x6x1x4x4xf32>
  %g = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %dy : tensor<1x6x8x10x10xf32>, tensor<6x1x8x4x4xf32>) outs(%z : tensor<1x6x1x4x4xf32>) -> tensor<1x6x1x4x4xf32>
  %c = tensor.collapse_shape %g [[0], [1, 2], [3], [4]] : tensor<1x6x1x4x4xf32> into tensor<1x6x4x4xf32>
  %w = tensor.extract_slice %c[0, 0, 0, 0] [1, 6, 3, 3] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x6x3x3xf32>
  %g2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %dy : tensor<1x6x8x10x10xf32>, tensor<6x1x8x4x4xf32>) outs(%z : tensor<1x6x1x4x4xf32>) -> tensor<1x6x1x4x4xf32>
  %c2 = tensor.collapse_shape %g2 [[0], [1, 2], [3], [4]] : tensor<1x6x1x4x4xf32> into tensor<1x6x4x4xf32>
  %cut = tensor.extract_slice %c2[0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> to tensor<1x3x4x4xf32>
  return %w, %cut : tensor<1x6x3x3xf32>, tensor<1x3x4x4xf32>
}
