// RUN: ckpt-opt %s --split-input-file --ckpt-remat | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-expand-checkpoints | FileCheck %s

// Tests that a user checkpoint is expanded without a budget: the body is
// inlined for the first use, and the later use gets a recompute region
// cloned from the checkpoint's inputs, right before it.
// CHECK-LABEL: func.func @no_markers
// CHECK-NOT:     ckpt.checkpoint
// CHECK:         %[[A:.*]] = math.exp %[[X:.*]] : tensor<1024xf32>
// CHECK:         %[[B:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK:         %[[C:.*]] = math.tanh %[[B]]
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[RX:.*]] = %[[X]] : tensor<1024xf32>) -> tensor<1024xf32> {
// CHECK:           math.exp %[[RX]]
// CHECK:         arith.addf %[[C]], %[[R]]
func.func @no_markers(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = ckpt.checkpoint(%xx = %x : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %xx : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  %b = arith.mulf %a, %a : tensor<1024xf32>
  %c = math.tanh %b : tensor<1024xf32>
  %d = arith.addf %c, %a : tensor<1024xf32>
  return %d : tensor<1024xf32>
}

// -----

// Tests that with phase markers the backward uses (here, ops depending on
// the ckpt.tangent argument) get the recomputation and every forward use the
// inlined value, however many there are.
// CHECK-LABEL: func.func @markers
// CHECK:         %[[H:.*]] = math.exp %{{.*}} : tensor<1024xf32>
// CHECK:         arith.mulf %[[H]], %[[H]]
// CHECK:         arith.addf %[[H]], %{{.*}}
// CHECK:         %[[R:.*]] = ckpt.recompute
// CHECK:         arith.mulf %{{.*}}, %[[R]]
func.func @markers(%x: tensor<1024xf32>, %g: tensor<1024xf32> {ckpt.tangent}) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %h = ckpt.checkpoint(%xx = %x : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %xx : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  %y = arith.mulf %h, %h : tensor<1024xf32>
  %z = arith.addf %h, %y : tensor<1024xf32>
  %dh = arith.mulf %g, %h : tensor<1024xf32>
  return %z, %dh : tensor<1024xf32>, tensor<1024xf32>
}
