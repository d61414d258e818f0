// RUN: ckpt-opt %s --ckpt-autodiff | FileCheck %s

// Tests that a marked function gets a _grad twin returning the loss and one
// gradient per float tensor argument (not the integer one), with every
// forward op marked forward and every adjoint op backward.
// CHECK-LABEL: func.func @loss(
// CHECK-SAME:    attributes {ckpt.differentiate}
// CHECK-LABEL: func.func @loss_grad(
// CHECK-SAME:    %{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>, %{{.*}}: tensor<4xi32>)
// CHECK-SAME:    -> (tensor<f32>, tensor<4x8xf32>, tensor<8x8xf32>)
// CHECK-NOT:     ckpt.differentiate
// CHECK:         linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}}ckpt.phase = #ckpt.phase<forward>
// CHECK:         linalg.generic {{.*}}ckpt.phase = #ckpt.phase<forward>
// The adjoint of x reduces over n, the adjoint of w over m.
// CHECK:         linalg.generic {{.*}}["parallel", "reduction", "parallel"]{{.*}}ckpt.phase = #ckpt.phase<backward>
// CHECK:         linalg.generic {{.*}}["reduction", "parallel", "parallel"]{{.*}}ckpt.phase = #ckpt.phase<backward>
// CHECK:         return %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<4x8xf32>, tensor<8x8xf32>
func.func @loss(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %labels: tensor<4xi32>) -> tensor<f32>
    attributes {ckpt.differentiate} {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %se = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%c0 : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%m : tensor<4x8xf32>) outs(%s0 : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}

// Tests that unmarked functions are left alone.
// CHECK-NOT: func.func @other_grad
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
