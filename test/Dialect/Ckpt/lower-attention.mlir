// RUN: ckpt-opt %s --split-input-file --ckpt-lower-attention | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-lower-attention --ckpt-cpu-pipeline -o /dev/null

// Tests that the forward becomes one parallel loop over the heads and tiles
// of 16 query rows, each with stack tiles only: the tile's query rows (16 x
// 8), its outputs and a key block's values padded to whole 16-lane vectors
// (16 x 16), the key block transposed into [width][block] (8 x 16), the
// block's bias, the scores of a group of 4 rows, the rows' maxima and sums;
// key blocks up to the tile's last row (causal); the scores and the output
// accumulations as vector multiply-adds shared by the group's rows; the
// log-sum-exp at the end. No heap allocation.
// CHECK-LABEL: func.func @forward
// CHECK-NOT: memref.alloc(
// CHECK: %[[TILES:.*]] = arith.ceildivui %{{.*}}, %c16
// CHECK: scf.parallel (%{{[^,]*}}, %{{[^)]*}}) = ({{.*}}) to (%{{[^,]*}}, %[[TILES]])
// CHECK-NEXT: memref.alloca() : memref<16x8xf32>
// CHECK-NEXT: memref.alloca() : memref<16x16xf32>
// CHECK-NEXT: memref.alloca() : memref<16x16xf32>
// CHECK-NEXT: %[[KT:.*]] = memref.alloca() : memref<8x16xf32>
// CHECK-NEXT: memref.alloca() : memref<16xf32>
// CHECK-NEXT: %[[SCORES:.*]] = memref.alloca() : memref<4x16xf32>
// CHECK: arith.minui
// CHECK: %[[KEYS:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KEYS]] step %c16
// CHECK: memref.store %{{.*}}, %[[KT]][
// CHECK: vector.load %[[KT]]
// CHECK-COUNT-4: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[SCORES]]
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: math.log
// CHECK-NOT: memref.alloc(
// CHECK-NOT: ckpt.attention
func.func @forward(%q: memref<4x16x8xf32>, %k: memref<4x16x8xf32>, %v: memref<4x16x8xf32>, %o: memref<4x16x8xf32>, %l: memref<4x16xf32>) {
  ckpt.attention causal scale(0.5) ins(%q, %k, %v : memref<4x16x8xf32>, memref<4x16x8xf32>, memref<4x16x8xf32>) outs(%o, %l : memref<4x16x8xf32>, memref<4x16xf32>)
  return
}

// -----

// Tests that the gradient is parallel over the leading dimensions only (dK
// and dV accumulate over the query rows), in key blocks of 16 (6 keys,
// padded) with stack tiles: K and V transposed, their gradients' tiles, the
// block's keys as rows padded to whole 8-lane f64 vectors, a group's dQ
// sums, the bias, the probabilities and score gradients of a group of 4
// rows; each probability recomputed from the log-sum-exp (no log); the
// scores and the dK/dV/dQ sums as vector multiply-adds shared by the
// group's rows; nothing on the heap.
// CHECK-LABEL: func.func @grad
// CHECK-NOT: memref.alloc(
// CHECK: scf.parallel (%{{[^,]*}}, %{{[^)]*}}) =
// CHECK-NEXT: memref.alloca() : memref<4x16xf64>
// CHECK-NEXT: memref.alloca() : memref<5x16xf64>
// CHECK-NEXT: memref.alloca() : memref<4x16xf64>
// CHECK-NEXT: memref.alloca() : memref<5x16xf64>
// CHECK-NEXT: memref.alloca() : memref<16x8xf64>
// CHECK-NEXT: memref.alloca() : memref<4x8xf64>
// CHECK-NEXT: memref.alloca() : memref<16xf64>
// CHECK-NEXT: memref.alloca() : memref<4x16xf64>
// CHECK-NEXT: memref.alloca() : memref<4x16xf64>
// CHECK-COUNT-4: vector.fma {{.*}} : vector<8xf64>
// CHECK: math.exp
// CHECK: vector.fma {{.*}} : vector<8xf64>
// CHECK: scf.if
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

// -----

// Tests that dynamic widths put each parallel iteration's tiles in an
// alloca scope (their size is known only at run time; the stack is released
// every iteration), with 64-key blocks when the key count is dynamic.
// CHECK-LABEL: func.func @dynamic
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca_scope
// CHECK: memref.alloca(%{{.*}}) : memref<?x64xf32>
// CHECK-NOT: memref.alloc(
func.func @dynamic(%q: memref<2x?x?xf32>, %k: memref<2x?x?xf32>, %v: memref<2x?x?xf32>, %o: memref<2x?x?xf32>, %l: memref<2x?xf32>) {
  ckpt.attention scale(0.5) ins(%q, %k, %v : memref<2x?x?xf32>, memref<2x?x?xf32>, memref<2x?x?xf32>) outs(%o, %l : memref<2x?x?xf32>, memref<2x?xf32>)
  return
}
