// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | FileCheck %s
// RUN: ckpt-opt %s --ckpt-autodiff="function=loss raise-attention=0" | FileCheck %s --check-prefix=UNFUSED

// Tests that ckpt-autodiff raises the unfused attention first and
// differentiates it into one ckpt.attention_grad reading the forward's output
// and log-sum-exp (no Sq x Sk tensor in the gradient), and that
// raise-attention=0 keeps it unfused.
// CHECK-LABEL: func.func @loss_grad
// CHECK: %[[A:.*]]:2 = ckpt.attention causal scale(5.000000e-01)
// CHECK-NOT: tensor<2x8x8xf32>
// CHECK: ckpt.attention_grad causal scale(5.000000e-01) ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]]#0, %[[A]]#1, %{{.*}} :
// CHECK-NOT: tensor<2x8x8xf32>
// CHECK: return
// UNFUSED-LABEL: func.func @loss_grad
// UNFUSED-NOT: ckpt.attention
// UNFUSED: tensor<2x8x8xf32>
func.func @loss(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<2x8x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%em : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %later, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %ep = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<2x8x8xf32>) outs(%ep : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %se = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%o : tensor<2x8x4xf32>) outs(%s0 : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %acc, %x : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %loss : tensor<f32>
}
