// RUN: ckpt-opt %s --split-input-file --ckpt-lower-attention | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-lower-attention --ckpt-cpu-pipeline -o /dev/null

// Tests that the forward becomes one parallel loop over the heads and the
// query rows, each with a 64-element stack row for a block's scores, and an
// online softmax over blocks of 64 keys up to the row (causal): the block's
// scores and maximum, their exponentials and sum, the output row rescaled
// once; no heap allocation.
// CHECK-LABEL: func.func @forward
// CHECK-NOT: memref.alloc(
// CHECK: scf.parallel (%[[H:.*]], %[[I:.*]]) =
// CHECK-NEXT: %[[ROW:.*]] = memref.alloca() : memref<64xf32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]]
// CHECK: %[[KEYS:.*]] = arith.minui %[[NEXT]]
// CHECK: %[[BLOCK:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KEYS]] step %[[BLOCK]] iter_args
// CHECK: memref.store %{{.*}}, %[[ROW]]
// CHECK: arith.maximumf
// CHECK: scf.for
// CHECK: math.exp
// CHECK: arith.addf {{.*}} fastmath<reassoc,contract>
// CHECK: math.exp
// CHECK: math.log
// CHECK-NOT: memref.alloc(
// CHECK-NOT: ckpt.attention
func.func @forward(%q: memref<4x16x8xf32>, %k: memref<4x16x8xf32>, %v: memref<4x16x8xf32>, %o: memref<4x16x8xf32>, %l: memref<4x16xf32>) {
  ckpt.attention causal scale(0.5) ins(%q, %k, %v : memref<4x16x8xf32>, memref<4x16x8xf32>, memref<4x16x8xf32>) outs(%o, %l : memref<4x16x8xf32>, memref<4x16xf32>)
  return
}

// -----

// Tests that the gradient is parallel over the leading dimensions only (dK
// and dV accumulate over the query rows), recomputes each probability from
// the log-sum-exp, a block of 64 keys at a time into a stack row (and the
// block's score gradients into another), and allocates nothing on the heap.
// CHECK-LABEL: func.func @grad
// CHECK-NOT: memref.alloc(
// CHECK: scf.parallel (%{{[^,]*}}, %{{[^)]*}}) =
// CHECK-NEXT: memref.alloca() : memref<64xf64>
// CHECK-NEXT: memref.alloca() : memref<64xf64>
// CHECK: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: memref.alloc(
// CHECK-NOT: ckpt.attention_grad
func.func @grad(%q: memref<2x3x8x4xf64>, %k: memref<2x3x6x4xf64>, %v: memref<2x3x6x5xf64>, %o: memref<2x3x8x5xf64>, %l: memref<2x3x8xf64>, %do: memref<2x3x8x5xf64>, %dq: memref<2x3x8x4xf64>, %dk: memref<2x3x6x4xf64>, %dv: memref<2x3x6x5xf64>) {
  ckpt.attention_grad scale(0.5) ins(%q, %k, %v, %o, %l, %do : memref<2x3x8x4xf64>, memref<2x3x6x4xf64>, memref<2x3x6x5xf64>, memref<2x3x8x5xf64>, memref<2x3x8xf64>, memref<2x3x8x5xf64>) outs(%dq, %dk, %dv : memref<2x3x8x4xf64>, memref<2x3x6x4xf64>, memref<2x3x6x5xf64>)
  return
}

// -----

// Tests that without leading dimensions the gradient has no parallel loop.
// CHECK-LABEL: func.func @grad_rank2
// CHECK-NOT: scf.parallel
// CHECK: scf.for
func.func @grad_rank2(%q: memref<8x4xf32>, %l: memref<8xf32>) {
  ckpt.attention_grad scale(0.5) ins(%q, %q, %q, %q, %l, %q : memref<8x4xf32>, memref<8x4xf32>, memref<8x4xf32>, memref<8x4xf32>, memref<8xf32>, memref<8x4xf32>) outs(%q, %q, %q : memref<8x4xf32>, memref<8x4xf32>, memref<8x4xf32>)
  return
}
