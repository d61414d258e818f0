// RUN: ckpt-opt %s --split-input-file --ckpt-attention-to-cuda | FileCheck %s

// Tests that a causal forward becomes a call of the fused f32 kernel with
// every operand as a rank-4 view ([1, heads, rows, width]: one unit leading
// size added), the log-sum-exp as a rank-3 one, causal = 1 and the scale.
// CHECK-LABEL: func.func private @ckpt_cuda_attention_f32(memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, i32, f64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @forward
// CHECK:         %[[BASE:.*]], %[[OFFSET:.*]], %[[SIZES:.*]]:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata %arg0
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[Q:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [%[[ONE]], %[[SIZES]]#0, %[[SIZES]]#1, %[[SIZES]]#2], strides: [%[[ZERO]], %[[STRIDES]]#0, %[[STRIDES]]#1, %[[STRIDES]]#2]
// CHECK:         memref.extract_strided_metadata %arg4 : memref<4x128xf32>
// CHECK:         %[[LSE:.*]] = memref.reinterpret_cast {{.*}} : memref<f32> to memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-DAG:     %[[CAUSAL:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 2.500000e-01 : f64
// CHECK:         call @ckpt_cuda_attention_f32(%[[Q]], %{{.*}}, %{{.*}}, %{{.*}}, %[[LSE]], %[[CAUSAL]], %[[SCALE]])
// CHECK-NOT:     ckpt.attention
func.func @forward(%q: memref<4x128x16xf32>, %k: memref<4x128x16xf32>, %v: memref<4x128x16xf32>,
                   %o: memref<4x128x16xf32>, %lse: memref<4x128xf32>) {
  ckpt.attention causal scale(0.25)
      ins(%q, %k, %v : memref<4x128x16xf32>, memref<4x128x16xf32>, memref<4x128x16xf32>)
      outs(%o, %lse : memref<4x128x16xf32>, memref<4x128xf32>)
  return
}

// -----

// Tests the gradient with a key mask on strided (transposed) rank-4 views:
// the masked kernel, nine views then the mask as [batch, heads, keys],
// causal = 0; the views keep the operands' strides (the metadata's).
// CHECK-LABEL: func.func private @ckpt_cuda_attention_grad_masked_f32(
// CHECK-SAME:    memref<?x?x?xi1, strided<[?, ?, ?], offset: ?>>, i32, f64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @masked_grad
// CHECK:         memref.extract_strided_metadata %arg0 : memref<2x3x8x4xf32, strided<[96, 4, 12, 1]>>
// CHECK:         %[[MASK:.*]] = memref.reinterpret_cast {{.*}} : memref<i1> to memref<?x?x?xi1, strided<[?, ?, ?], offset: ?>>
// CHECK:         %[[CAUSAL:.*]] = arith.constant 0 : i32
// CHECK:         call @ckpt_cuda_attention_grad_masked_f32(%{{[^)]*}}, %[[MASK]], %[[CAUSAL]], %{{[a-z_0-9]+}})
func.func @masked_grad(%q: memref<2x3x8x4xf32, strided<[96, 4, 12, 1]>>, %k: memref<2x3x6x4xf32>,
                       %v: memref<2x3x6x5xf32>, %o: memref<2x3x8x5xf32>, %lse: memref<2x3x8xf32>,
                       %do: memref<2x3x8x5xf32>, %dq: memref<2x3x8x4xf32>, %dk: memref<2x3x6x4xf32>,
                       %dv: memref<2x3x6x5xf32>, %mask: memref<2x3x6xi1>) {
  ckpt.attention_grad scale(0.5) key_mask(%mask : memref<2x3x6xi1>)
      ins(%q, %k, %v, %o, %lse, %do : memref<2x3x8x4xf32, strided<[96, 4, 12, 1]>>, memref<2x3x6x4xf32>,
          memref<2x3x6x5xf32>, memref<2x3x8x5xf32>, memref<2x3x8xf32>, memref<2x3x8x5xf32>)
      outs(%dq, %dk, %dv : memref<2x3x8x4xf32>, memref<2x3x6x4xf32>, memref<2x3x6x5xf32>)
  return
}

// -----

// Tests a rank-2 query with dynamic sizes: two unit leading sizes.
// CHECK-LABEL: func.func @single_head
// CHECK:         memref.reinterpret_cast {{.*}} sizes: [%[[ONE:.*]], %[[ONE]], %{{.*}}#0, %{{.*}}#1], strides: [%[[ZERO:.*]], %[[ZERO]], %{{.*}}#0, %{{.*}}#1]
// CHECK:         call @ckpt_cuda_attention_f32
func.func @single_head(%q: memref<?x16xf32>, %k: memref<?x16xf32>, %v: memref<?x16xf32>,
                       %o: memref<?x16xf32>, %lse: memref<?xf32>) {
  ckpt.attention scale(0.25)
      ins(%q, %k, %v : memref<?x16xf32>, memref<?x16xf32>, memref<?x16xf32>)
      outs(%o, %lse : memref<?x16xf32>, memref<?xf32>)
  return
}
