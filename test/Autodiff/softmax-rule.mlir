// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | FileCheck %s

// Tests that linalg.softmax keeps its form in the gradient function and that
// its adjoint reads only the probabilities: a row sum of dP * P, then
// P * (dP - sum), with no exponential recomputed and no row maximum kept.
// CHECK-LABEL: func.func @loss_grad
// CHECK: %[[P:.*]] = linalg.softmax {ckpt.phase = #ckpt.phase<forward>} dimension(1)
// CHECK-NOT: math.exp
// CHECK-NOT: arith.maximumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[P]], %{{.*}} : tensor<4x6xf32>, tensor<4x6xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}}, %{{.*}} : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4xf32>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK-NOT: math.exp
// CHECK: return
func.func @loss(%a: tensor<4x6xf32>, %w: tensor<4x6xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = arith.mulf %s, %w : tensor<4x6xf32>
  %se = tensor.empty() : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %loss = linalg.reduce ins(%y : tensor<4x6xf32>) outs(%s0 : tensor<f32>) dimensions = [0, 1]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return %loss : tensor<f32>
}
