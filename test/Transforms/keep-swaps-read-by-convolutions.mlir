// RUN: ckpt-opt %s --ckpt-generalize-and-fuse="keep-convolutions" | FileCheck %s
// RUN: ckpt-opt %s --ckpt-tensor-prep="convolutions-to-gemm fuse-elementwise" \
// RUN:   --ckpt-report="format=json" -o /dev/null | FileCheck %s --check-prefix=PEAK
// RUN: ckpt-opt %s --ckpt-tensor-prep="convolutions-to-gemm fuse-elementwise" \
// RUN:   | FileCheck %s --check-prefix=GEMM

// A weight gradient as importers write it: the convolution of the
// activations and of the output gradient, both with images and channels
// swapped. The output gradient comes out of an elementwise op (a ReLU's
// gradient, here a scaling). With the convolutions kept for
// ckpt-convolution-to-gemm, the swap is not fused into that op (which would
// then write the swapped layout: a tensor of its own instead of its dying
// input's buffer); the product reads the gradient one image at a time where
// it is stored.
#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#s = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>

// CHECK-LABEL: func.func @weight_gradient
// CHECK:         %[[G:[0-9]+]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<4x8x16x16xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[SWAP:[0-9]+]] = linalg.generic {{.*}} ins(%[[G]] : tensor<4x8x16x16xf32>) outs(%{{.*}} : tensor<8x4x16x16xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[SWAP]] :
// The product reads the scaled gradient in place, one image at a time: no
// tensor<8x4x16x16xf32> is made.
// GEMM-LABEL: func.func @weight_gradient
// GEMM-NOT:     tensor<8x4x16x16xf32>
// GEMM:         scf.for
// GEMM:         tensor.extract_slice %{{.*}}[%{{.*}}, 0, 0, 0] [1, 8, 16, 16] [1, 1, 1, 1] : tensor<4x8x16x16xf32>
// GEMM:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x256xf32>, tensor<256x27xf32>)
// GEMM-NOT:     tensor<8x4x16x16xf32>
// Arguments 15,552 + 32,768 B, the scaled gradient 32,768 B, one image's
// patches 27,648 B and the result: the swapped copy would add 32,768 B.
// PEAK: "peak_bytes": 109632,
func.func @weight_gradient(%x: tensor<4x3x18x18xf32>, %dy: tensor<4x8x16x16xf32>) -> tensor<3x8x3x3xf32> {
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8x16x16xf32>
  %g = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dy : tensor<4x8x16x16xf32>) outs(%e0 : tensor<4x8x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<4x8x16x16xf32>
  %e1 = tensor.empty() : tensor<8x4x16x16xf32>
  %swapped = linalg.transpose ins(%g : tensor<4x8x16x16xf32>) outs(%e1 : tensor<8x4x16x16xf32>) permutation = [1, 0, 2, 3]
  %e2 = tensor.empty() : tensor<3x4x18x18xf32>
  %xs = linalg.transpose ins(%x : tensor<4x3x18x18xf32>) outs(%e2 : tensor<3x4x18x18xf32>) permutation = [1, 0, 2, 3]
  %e3 = tensor.empty() : tensor<3x8x3x3xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x8x3x3xf32>) -> tensor<3x8x3x3xf32>
  %dw = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xs, %swapped : tensor<3x4x18x18xf32>, tensor<8x4x16x16xf32>) outs(%fill : tensor<3x8x3x3xf32>) -> tensor<3x8x3x3xf32>
  return %dw : tensor<3x8x3x3xf32>
}

// A swap the product reads as it is (its taps, 2x2 positions of the output
// gradient, are too few for one image's block to be a BLAS operand) is left
// to fusion: the scaling writes the swapped layout itself, one tensor.
// CHECK-LABEL: func.func @small_weight_gradient
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<4x8x2x2xf32>) outs(%{{.*}} : tensor<8x4x2x2xf32>)
// CHECK:           arith.mulf
// CHECK-NOT:     tensor<4x8x2x2xf32>) outs(
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @small_weight_gradient(%x: tensor<4x3x4x4xf32>, %dy: tensor<4x8x2x2xf32>) -> tensor<3x8x3x3xf32> {
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8x2x2xf32>
  %g = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dy : tensor<4x8x2x2xf32>) outs(%e0 : tensor<4x8x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %two : f32
    linalg.yield %m : f32
  } -> tensor<4x8x2x2xf32>
  %e1 = tensor.empty() : tensor<8x4x2x2xf32>
  %swapped = linalg.transpose ins(%g : tensor<4x8x2x2xf32>) outs(%e1 : tensor<8x4x2x2xf32>) permutation = [1, 0, 2, 3]
  %e2 = tensor.empty() : tensor<3x4x4x4xf32>
  %xs = linalg.transpose ins(%x : tensor<4x3x4x4xf32>) outs(%e2 : tensor<3x4x4x4xf32>) permutation = [1, 0, 2, 3]
  %e3 = tensor.empty() : tensor<3x8x3x3xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x8x3x3xf32>) -> tensor<3x8x3x3xf32>
  %dw = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xs, %swapped : tensor<3x4x4x4xf32>, tensor<8x4x2x2xf32>) outs(%fill : tensor<3x8x3x3xf32>) -> tensor<3x8x3x3xf32>
  return %dw : tensor<3x8x3x3xf32>
}
