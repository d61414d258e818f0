// RUN: ckpt-opt %s --split-input-file --ckpt-gemm-to-blas | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-gemm-to-blas="num-threads=3" | FileCheck %s --check-prefix=THREADS
// RUN: not ckpt-opt %s --split-input-file --ckpt-gemm-to-blas="num-threads=0" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: ckpt-gemm-to-blas: num-threads must be at least 1, got 0

// Tests that a matmul on buffers becomes a call to the BLAS runtime's f32
// GEMM, the operands cast to dynamic strided memrefs, neither transposed,
// on the pass's thread count (1 unless told).
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[A:.*]] = memref.cast %{{.*}} : memref<64x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         call @ckpt_cpu_gemm_f32(%[[A]], %{{.*}}, %{{.*}}, %c0_i32{{.*}}, %c0_i32{{.*}}, %[[ONE]])
// THREADS-LABEL: func.func @matmul
// THREADS:         %[[THREE:.*]] = arith.constant 3 : i32
// THREADS:         call @ckpt_cpu_gemm_f32({{.*}}, %[[THREE]])
// CHECK-NOT:     linalg.matmul
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// Tests that f64 and batched contractions get their variants, and that a
// generic with A stored transposed passes transA = 1.
// CHECK-LABEL: func.func @variants
// CHECK:         call @ckpt_cpu_batch_gemm_f64(
// CHECK:         call @ckpt_cpu_gemm_f32(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32{{.*}}, %c0_i32{{.*}})
func.func @variants(%a: memref<4x8x16xf64>, %b: memref<4x16x8xf64>, %c: memref<4x8x8xf64>,
                    %at: memref<32x64xf32>, %b2: memref<32x16xf32>, %c2: memref<64x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x8x16xf64>, memref<4x16x8xf64>) outs(%c : memref<4x8x8xf64>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,
                                   affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %b2 : memref<32x64xf32>, memref<32x16xf32>) outs(%c2 : memref<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Tests a batched product whose operands are not laid out batch-first (as
// attention's are once an importer's transposes are folded into the maps):
// B is (k, batch, n), a strided slice, and C is (m, batch, n); each gets a
// transposed view with the batch first (no copy), A is passed as it is. An
// operand without unit stride along its rows stays a loop.
// CHECK-LABEL: func.func @batch_not_first
// CHECK-NOT:     memref.transpose %arg0
// CHECK-DAG:     %[[B:.*]] = memref.transpose %arg1 (d0, d1, d2) -> (d1, d0, d2) : memref<64x32x32xf32, strided<[1024, 32, 1], offset: 131072>> to memref<32x64x32xf32, strided<[32, 1024, 1], offset: 131072>>
// CHECK-DAG:     %[[C:.*]] = memref.transpose %arg2 (d0, d1, d2) -> (d1, d0, d2) : memref<64x32x32xf32> to memref<32x64x32xf32, strided<[32, 1024, 1]>>
// CHECK-DAG:     %[[CB:.*]] = memref.cast %[[B]]
// CHECK-DAG:     %[[CC:.*]] = memref.cast %[[C]]
// CHECK:         call @ckpt_cpu_batch_gemm_f32(%{{.*}}, %[[CB]], %[[CC]], %c0_i32, %c0_i32{{.*}}, %c1_i32)
// CHECK:         linalg.generic
// CHECK-NOT:     call @ckpt_cpu
func.func @batch_not_first(%a: memref<32x64x64xf32>, %b: memref<64x32x32xf32, strided<[1024, 32, 1], offset: 131072>>,
                           %c: memref<64x32x32xf32>, %d: memref<32x64x64xf32, strided<[4096, 1, 64]>>,
                           %e: memref<32x64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, b, n)>, affine_map<(b, m, n, k) -> (m, b, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x64x64xf32>, memref<64x32x32xf32, strided<[1024, 32, 1], offset: 131072>>)
      outs(%c : memref<64x32x32xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %0 = arith.mulf %x, %y : f32
      %1 = arith.addf %z, %0 : f32
      linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, b, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%d, %b : memref<32x64x64xf32, strided<[4096, 1, 64]>>, memref<64x32x32xf32, strided<[1024, 32, 1], offset: 131072>>)
      outs(%e : memref<32x64x32xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %0 = arith.mulf %x, %y : f32
      %1 = arith.addf %z, %0 : f32
      linalg.yield %1 : f32
  }
  return
}

// -----

// Tests that what BLAS has no GEMM for stays a linalg op: bf16, and
// contractions on tensors.
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<8x8xbf16>, memref<8x8xbf16>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NOT:     call @ckpt_cpu
func.func @left_alone(%a: memref<8x8xbf16>, %c: memref<8x8xbf16>, %t: tensor<8x8xf32>) -> tensor<8x8xf32> {
  linalg.matmul ins(%a, %a : memref<8x8xbf16>, memref<8x8xbf16>) outs(%c : memref<8x8xbf16>)
  %r = linalg.matmul ins(%t, %t : tensor<8x8xf32>, tensor<8x8xf32>) outs(%t : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Tests that an input read only for its shape, the window of a generalized
// max-pool (the window loops take their bounds from it), is kept when the
// generic's unread inputs are dropped: without it the op would not verify.
// CHECK-LABEL: func.func @pooling_window_kept
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : memref<1x2x6x6xf32>, memref<3x3xf32>)
func.func @pooling_window_kept(%in: memref<1x2x6x6xf32>, %window: memref<3x3xf32>,
                               %out: memref<1x2x2x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w, kh, kw) -> (n, c, h * 2 + kh, w * 2 + kw)>,
                                   affine_map<(n, c, h, w, kh, kw) -> (kh, kw)>,
                                   affine_map<(n, c, h, w, kh, kw) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel",
                                    "reduction", "reduction"]}
      ins(%in, %window : memref<1x2x6x6xf32>, memref<3x3xf32>) outs(%out : memref<1x2x2x2xf32>) {
  ^bb0(%x: f32, %unused: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }
  return
}
