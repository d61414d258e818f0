// RUN: ckpt-opt %s --split-input-file --ckpt-widen-gemm-operands | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-widen-gemm-operands --ckpt-widen-gemm-operands \
// RUN:   | FileCheck %s --check-prefix=TWICE

// Tests that a widened bf16 matmul (what ckpt-widen-accumulators makes of
// one) reads f32 copies of both inputs and multiplies and accumulates them
// in f32, keeping its maps, accumulator and annotations; the copies take
// its phase.
// CHECK-LABEL: func.func @bf16_matmul
// CHECK:         %[[EA:.*]] = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<8x32xf32>
// CHECK:         %[[WA:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8x32xbf16>) outs(%[[EA]] : tensor<8x32xf32>) attrs = {ckpt.phase = #ckpt.phase<backward>}
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK:         %[[EB:.*]] = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<32x16xf32>
// CHECK:         %[[WB:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<32x16xbf16>) outs(%[[EB]] : tensor<32x16xf32>)
// CHECK:         %[[P:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[WA]], %[[WB]] : tensor<8x32xf32>, tensor<32x16xf32>) outs(%arg2 : tensor<8x16xf32>) attrs = {ckpt.name = "logits", ckpt.phase = #ckpt.phase<backward>}
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         return %[[P]]
// TWICE-LABEL: func.func @bf16_matmul
// TWICE-COUNT-2: arith.extf
// TWICE-NOT:     arith.extf
func.func @bf16_matmul(%a: tensor<8x32xbf16>, %b: tensor<32x16xbf16>, %acc: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%acc : tensor<8x16xf32>)
      attrs = {ckpt.name = "logits", ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%x: bf16, %y: bf16, %z: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %1, %0 : f32
      %3 = arith.addf %2, %z : f32
      linalg.yield %3 : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Tests a batched f16 product with a transposed operand (ckpt-autodiff's
// gradient form): copies in the operands' own layouts.
// CHECK-LABEL: func.func @f16_batch_transposed
// TWICE-LABEL: func.func @f16_batch_transposed
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<2x16x8xf16>) outs(%{{.*}} : tensor<2x16x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<2x16x4xf16>) outs(%{{.*}} : tensor<2x16x4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16x8xf32>, tensor<2x16x4xf32>) outs(%arg2 : tensor<2x8x4xf32>)
func.func @f16_batch_transposed(%a: tensor<2x16x8xf16>, %b: tensor<2x16x4xf16>, %acc: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, k, i)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x16x8xf16>, tensor<2x16x4xf16>) outs(%acc : tensor<2x8x4xf32>) {
    ^bb0(%x: f16, %y: f16, %z: f32):
      %0 = arith.extf %x : f16 to f32
      %1 = arith.extf %y : f16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %z, %2 : f32
      linalg.yield %3 : f32
  } -> tensor<2x8x4xf32>
  return %r : tensor<2x8x4xf32>
}

// -----

// Tests what stays as it is: a narrow row sum (a reduction, not a GEMM), a
// product with an epilogue in its payload, an f32 product, and a
// contraction with two reduction dimensions.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     tensor.empty
func.func @unchanged(%a: tensor<8x32xbf16>, %b: tensor<32x16xbf16>, %acc: tensor<8x16xf32>,
                     %f: tensor<8x32xf32>, %g: tensor<32x16xf32>, %sum: tensor<8xf32>,
                     %c: tensor<4x8x4xbf16>, %d: tensor<4x8x4xbf16>, %acc2: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>) {
  %rows = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<8x32xbf16>) outs(%sum : tensor<8xf32>) {
    ^bb0(%x: bf16, %z: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.addf %z, %0 : f32
      linalg.yield %1 : f32
  } -> tensor<8xf32>
  %epilogue = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                              iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%acc : tensor<8x16xf32>) {
    ^bb0(%x: bf16, %y: bf16, %z: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %z, %2 : f32
      %4 = arith.maximumf %3, %z : f32
      linalg.yield %4 : f32
  } -> tensor<8x16xf32>
  %wide = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%f, %g : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<8x16xf32>) {
    ^bb0(%x: f32, %y: f32, %z: f32):
      %2 = arith.mulf %x, %y : f32
      %3 = arith.addf %z, %2 : f32
      linalg.yield %3 : f32
  } -> tensor<8x16xf32>
  %two = linalg.generic {indexing_maps = [affine_map<(i, k, l) -> (k, i, l)>, affine_map<(i, k, l) -> (k, i, l)>, affine_map<(i, k, l) -> (i)>],
                         iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%c, %d : tensor<4x8x4xbf16>, tensor<4x8x4xbf16>) outs(%acc2 : tensor<8xf32>) {
    ^bb0(%x: bf16, %y: bf16, %z: f32):
      %0 = arith.extf %x : bf16 to f32
      %1 = arith.extf %y : bf16 to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %z, %2 : f32
      linalg.yield %3 : f32
  } -> tensor<8xf32>
  return %rows, %epilogue, %wide, %two : tensor<8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>
}
