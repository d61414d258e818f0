// RUN: ckpt-opt %s --split-input-file --ckpt-gemm-to-cublas | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-gemm-to-cublas=allow-tf32=true | FileCheck %s --check-prefix=TF32

// Tests that a matmul becomes a call of the f32 GEMM (tf32 with the
// option) on fully dynamic strided memrefs, declared with the C interface.
// CHECK-LABEL: func.func private @ckpt_cuda_gemm_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i32, i32) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[A:.*]] = memref.cast %arg0
// CHECK-DAG:     %[[B:.*]] = memref.cast %arg1
// CHECK-DAG:     %[[C:.*]] = memref.cast %arg2
// CHECK:         call @ckpt_cuda_gemm_f32(%[[A]], %[[B]], %[[C]], %c0_i32{{[_0-9]*}}, %c0_i32{{[_0-9]*}})
// CHECK-NOT:     linalg.matmul
// TF32-LABEL:  func.func @matmul
// TF32:          call @ckpt_cuda_gemm_tf32
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Tests that a generic contraction reading A transposed ([k, m]) sets
// transA, and that bf16 inputs with an f32 output pick the bf16_f32 GEMM.
// CHECK-LABEL: func.func @transposed_a_bf16
// CHECK:         call @ckpt_cuda_gemm_bf16_f32(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32{{[_0-9]*}}, %c0_i32{{[_0-9]*}})
func.func @transposed_a_bf16(%a: memref<32x64xbf16>, %b: memref<32x16xbf16>, %c: memref<64x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x64xbf16>, memref<32x16xbf16>) outs(%c : memref<64x16xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests that a batch matmul calls the batched GEMM with rank-3 operands.
// CHECK-LABEL: func.func @batch
// CHECK:         call @ckpt_cuda_batch_gemm_f32({{.*}}) : (memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
func.func @batch(%a: memref<4x8x16xf32>, %b: memref<4x16x8xf32>, %c: memref<4x8x8xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x8x16xf32>, memref<4x16x8xf32>) outs(%c : memref<4x8x8xf32>)
  return
}

// -----

// Tests a matmul gradient as ckpt-autodiff writes it: the generic also takes
// the forward's operands (%fa, %fb) and computes `(1.0 * a) * b` next to a
// dead product. The payload is simplified and the unread inputs dropped,
// and since the output is indexed (n, m) — the product stored transposed —
// the inputs are passed the other way round: A = %dy ([m, k]), B = %w read
// transposed ([n, k]).
// CHECK-LABEL: func.func @autodiff_gradient
// CHECK-DAG:     %[[A:.*]] = memref.cast %arg3
// CHECK-DAG:     %[[B:.*]] = memref.cast %arg1
// CHECK-DAG:     %[[C:.*]] = memref.cast %arg4
// CHECK:         call @ckpt_cuda_gemm_f32(%[[A]], %[[B]], %[[C]], %c0_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK-NOT:     linalg.generic
func.func @autodiff_gradient(%fa: memref<16x32xf32>, %w: memref<32x24xf32>, %fb: memref<16x24xf32>,
                             %dy: memref<16x24xf32>, %dx: memref<16x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k, j) -> (i, j)>, affine_map<(i, k, j) -> (j, k)>,
                                   affine_map<(i, k, j) -> (i, k)>, affine_map<(i, k, j) -> (i, k)>,
                                   affine_map<(i, k, j) -> (i, j)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%fa, %w, %fb, %dy : memref<16x32xf32>, memref<32x24xf32>, memref<16x24xf32>, memref<16x24xf32>)
      outs(%dx : memref<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %g: f32, %acc: f32):
    %one = arith.constant 1.0 : f32
    %dead = arith.mulf %a, %b : f32
    %deadsum = arith.addf %c, %dead : f32
    %scaled = arith.mulf %one, %b : f32
    %p = arith.mulf %scaled, %g : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests what is left to the code generator: a fused elementwise prologue,
// integer types, and ops on tensors.
// CHECK-LABEL: func.func @not_gemms
// CHECK-NOT:     call
// CHECK:         linalg.generic
// CHECK:         linalg.matmul ins(%arg3, %arg4 : memref<8x8xi32>, memref<8x8xi32>)
// CHECK:         linalg.matmul ins(%arg6, %arg7 : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NOT:     call
func.func @not_gemms(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>,
                     %ia: memref<8x8xi32>, %ib: memref<8x8xi32>, %ic: memref<8x8xi32>,
                     %ta: tensor<8x8xf32>, %tb: tensor<8x8xf32>, %tc: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %r = arith.maximumf %x, %zero : f32
    %p = arith.mulf %r, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%ia, %ib : memref<8x8xi32>, memref<8x8xi32>) outs(%ic : memref<8x8xi32>)
  %t = linalg.matmul ins(%ta, %tb : tensor<8x8xf32>, tensor<8x8xf32>) outs(%tc : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
