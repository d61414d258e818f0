// RUN: ckpt-opt %s --split-input-file --ckpt-widen-accumulators | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-widen-accumulators=f32-min-extent=0 | FileCheck %s --check-prefix=OFF
// RUN: not ckpt-opt %s --split-input-file --ckpt-widen-accumulators=f32-min-extent=-1 2>&1 | FileCheck %s --check-prefix=BAD

// Long f32 sums accumulate in f64 (f32-min-extent, 256 by default) and are
// rounded to f32 once: a BatchNorm-style sum over batch x positions.
// CHECK-LABEL: func.func @channel_sum
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<8xf64>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%[[EMPTY]] : tensor<8xf64>)
// CHECK:         %[[ACC:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<16x8x32xf32>) outs(%[[INIT]] : tensor<8xf64>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f64):
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[WIDE]], %[[OUT]] : f64
// CHECK-NEXT:      linalg.yield %[[SUM]] : f64
// CHECK:         %[[ROUNDED:.*]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<8xf64>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK:         return %[[ROUNDED]]
// OFF-LABEL: func.func @channel_sum
// OFF-NOT:     f64
// OFF:         return
// BAD: ckpt-widen-accumulators: f32-min-extent must be 0 (off) or positive, got -1
func.func @channel_sum(%x: tensor<16x8x32xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (c)>],
                       iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<16x8x32xf32>) outs(%fill : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A dot product per channel (BatchNorm's weight gradient: the gradient
// times the normalized input) multiplies and accumulates in f64; it has no
// M and N dimensions, so no GEMM library takes it.
// CHECK-LABEL: func.func @channel_dot
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf64>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[OUT:.*]]: f64):
// CHECK-DAG:       %[[WA:.*]] = arith.extf %[[A]] : f32 to f64
// CHECK-DAG:       %[[WB:.*]] = arith.extf %[[B]] : f32 to f64
// CHECK:           %[[P:.*]] = arith.mulf %[[WA]], %[[WB]] : f64
// CHECK:           arith.addf %[[P]], %[[OUT]] : f64
func.func @channel_dot(%x: tensor<16x8x32xf32>, %y: tensor<16x8x32xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, p) -> (n, c, p)>, affine_map<(n, c, p) -> (n, c, p)>,
                                        affine_map<(n, c, p) -> (c)>],
                       iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %y : tensor<16x8x32xf32>, tensor<16x8x32xf32>) outs(%fill : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %acc : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// What stays f32: a sum shorter than f32-min-extent, a maximum (it rounds
// nothing), a matrix product (the GEMM libraries sum in blocks), and a sum
// of one-hot products (an embedding gradient: a scatter of rows).
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     f64
// CHECK:         return
func.func @kept(%x: tensor<4x64xf32>, %m: tensor<4x1024xf32>, %a: tensor<8x512xf32>,
                %b: tensor<512x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %short = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%m : tensor<4x1024xf32>) outs(%fill : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                                         affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x512xf32>, tensor<512x8xf32>) outs(%fill2 : tensor<8x8xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %0 = arith.mulf %l, %r : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x8xf32>
  return %short, %max, %mm : tensor<4xf32>, tensor<4xf32>, tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @one_hot_rows
// CHECK-NOT:     f64
// CHECK:         return
func.func @one_hot_rows(%tokens: tensor<512xi64>, %rows: tensor<512x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t)>, affine_map<(v, h, t) -> (t, h)>,
                                        affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tokens, %rows : tensor<512xi64>, tensor<512x8xf32>) outs(%fill : tensor<16x8xf32>) {
  ^bb0(%token: i64, %row: f32, %acc: f32):
    %v = linalg.index 0 : index
    %vi = arith.index_cast %v : index to i64
    %hit = arith.cmpi eq, %token, %vi : i64
    %one = arith.uitofp %hit : i1 to f32
    %p = arith.mulf %one, %row : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %g : tensor<16x8xf32>
}
