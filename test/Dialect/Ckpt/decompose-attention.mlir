// RUN: ckpt-opt %s --split-input-file --ckpt-decompose-attention | FileCheck %s

// Tests the forward's generics: scores (a contraction), scale and causal
// mask to -inf, row maximum, exponentials, row sums, the weighted values,
// the division by the sums and the log-sum-exp.
// CHECK-LABEL: func.func @forward
// CHECK-NOT: ckpt.attention
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x8x4xf32>, tensor<2x6x4xf32>) outs(%{{.*}} : tensor<2x8x6xf32>)
// CHECK: linalg.index 1
// CHECK: linalg.index 2
// CHECK: arith.cmpi ugt
// CHECK: arith.select %{{.*}}, %cst{{.*}}, %{{.*}} : f32
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: outs(%{{.*}} : tensor<2x8x3xf32>)
// CHECK: arith.divf
// CHECK: math.log
// CHECK: return %{{.*}}, %{{.*}} : tensor<2x8x3xf32>, tensor<2x8xf32>
func.func @forward(%q: tensor<2x8x4xf32>, %k: tensor<2x6x4xf32>, %v: tensor<2x6x3xf32>) -> (tensor<2x8x3xf32>, tensor<2x8xf32>) {
  %e = tensor.empty() : tensor<2x8x3xf32>
  %l = tensor.empty() : tensor<2x8xf32>
  %o, %lse = ckpt.attention causal scale(0.5) ins(%q, %k, %v : tensor<2x8x4xf32>, tensor<2x6x4xf32>, tensor<2x6x3xf32>) outs(%e, %l : tensor<2x8x3xf32>, tensor<2x8xf32>) -> tensor<2x8x3xf32>, tensor<2x8xf32>
  return %o, %lse : tensor<2x8x3xf32>, tensor<2x8xf32>
}

// -----

// Tests that the gradient recomputes the probabilities from the saved
// log-sum-exp (no maximum, no logarithm) and returns dQ, dK, dV.
// CHECK-LABEL: func.func @grad
// CHECK-NOT: ckpt.attention_grad
// CHECK-NOT: arith.maximumf
// CHECK-NOT: math.log
// CHECK: math.exp
// CHECK-NOT: arith.cmpi
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x4xf64>, tensor<6x4xf64>, tensor<6x3xf64>
func.func @grad(%q: tensor<8x4xf64>, %k: tensor<6x4xf64>, %v: tensor<6x3xf64>, %o: tensor<8x3xf64>, %lse: tensor<8xf64>, %do: tensor<8x3xf64>) -> (tensor<8x4xf64>, tensor<6x4xf64>, tensor<6x3xf64>) {
  %e0 = tensor.empty() : tensor<8x4xf64>
  %e1 = tensor.empty() : tensor<6x4xf64>
  %e2 = tensor.empty() : tensor<6x3xf64>
  %g:3 = ckpt.attention_grad scale(0.5) ins(%q, %k, %v, %o, %lse, %do : tensor<8x4xf64>, tensor<6x4xf64>, tensor<6x3xf64>, tensor<8x3xf64>, tensor<8xf64>, tensor<8x3xf64>) outs(%e0, %e1, %e2 : tensor<8x4xf64>, tensor<6x4xf64>, tensor<6x3xf64>) -> tensor<8x4xf64>, tensor<6x4xf64>, tensor<6x3xf64>
  return %g#0, %g#1, %g#2 : tensor<8x4xf64>, tensor<6x4xf64>, tensor<6x3xf64>
}
