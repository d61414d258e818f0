// RUN: ckpt-opt %s --split-input-file --ckpt-widen-accumulators | FileCheck %s

// Tests that a bf16 sum accumulates into an f32 fill of the same value,
// extends its input, adds in f32 and is rounded once afterwards; the narrow
// fill it no longer needs is gone, and the annotations reach both ops.
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT:     arith.constant {{.*}} : bf16
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4xf32>)
// CHECK:         %[[ACC:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x1024xbf16>) outs(%[[INIT]] : tensor<4xf32>) attrs = {ckpt.name = "sum", ckpt.phase = #ckpt.phase<forward>}
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: bf16, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[OUT]], %[[WIDE]] : f32
// CHECK-NEXT:      linalg.yield %[[SUM]] : f32
// CHECK:         %[[NARROW:.*]] = tensor.empty() : tensor<4xbf16>
// CHECK:         %[[ROUNDED:.*]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<4xf32>) outs(%[[NARROW]] : tensor<4xbf16>) attrs = {ckpt.name = "sum", ckpt.phase = #ckpt.phase<forward>}
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[A]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[R]] : bf16
// CHECK:         return %[[ROUNDED]]
// CHECK-NOT:     tensor<4xbf16>) -> tensor<4xbf16>
func.func @row_sum(%x: tensor<4x1024xbf16>) -> tensor<4xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4xbf16>
  %fill = linalg.fill ins(%zero : bf16) outs(%e : tensor<4xbf16>) -> tensor<4xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x1024xbf16>) outs(%fill : tensor<4xbf16>)
      attrs = {ckpt.name = "sum", ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %acc: bf16):
      %0 = arith.addf %acc, %in : bf16
      linalg.yield %0 : bf16
  } -> tensor<4xbf16>
  return %s : tensor<4xbf16>
}

// -----

// Tests that a generalized bf16 matmul multiplies its inputs exactly in f32
// (the product is read only by the accumulation) and that a bias it
// accumulates onto (not a fill) is extended elementwise.
// CHECK-LABEL: func.func @matmul_onto_bias
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK:         %[[INIT:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<8x16xbf16>) outs(%[[EMPTY]] : tensor<8x16xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:         linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%[[INIT]] : tensor<8x16xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16, %[[C:.*]]: f32):
// CHECK-NEXT:      %[[WA:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:      %[[WB:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[WA]], %[[WB]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[C]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
func.func @matmul_onto_bias(%a: tensor<8x32xbf16>, %b: tensor<32x16xbf16>, %bias: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%bias : tensor<8x16xbf16>) {
    ^bb0(%x: bf16, %y: bf16, %acc: bf16):
      %0 = arith.mulf %x, %y : bf16
      %1 = arith.addf %acc, %0 : bf16
      linalg.yield %1 : bf16
  } -> tensor<8x16xbf16>
  return %r : tensor<8x16xbf16>
}

// -----

// Tests that a payload reading a value from above (a scale) is widened
// with it.
// CHECK-LABEL: func.func @scaled_sum
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: bf16, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.extf %arg1 : bf16 to f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK-NEXT:      arith.addf %[[ACC]], %[[P]] : f32
func.func @scaled_sum(%x: tensor<4x8xbf16>, %scale: bf16, %init: tensor<4xbf16>) -> tensor<4xbf16> {
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xbf16>) outs(%init : tensor<4xbf16>) {
    ^bb0(%in: bf16, %acc: bf16):
      %0 = arith.mulf %in, %scale : bf16
      %1 = arith.addf %acc, %0 : bf16
      linalg.yield %1 : bf16
  } -> tensor<4xbf16>
  return %s : tensor<4xbf16>
}

// -----

// Tests that an f16 max-reduction whose accumulation compares and selects
// is widened: the square it compares (read only by the accumulation), the
// comparison and the select are computed in f32.
// CHECK-LABEL: func.func @max_with_select
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[A:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[B:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[SQ]], %[[ACC]] : f32
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[GT]], %[[SQ]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[SEL]] : f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @max_with_select(%x: tensor<4x64xf16>, %init: tensor<4xf16>) -> tensor<4xf16> {
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf16>) outs(%init : tensor<4xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %sq = arith.mulf %in, %in : f16
      %gt = arith.cmpf ogt, %sq, %acc : f16
      %0 = arith.select %gt, %sq, %acc : f16
      linalg.yield %0 : f16
  } -> tensor<4xf16>
  return %m : tensor<4xf16>
}

// -----

// Tests that f32 reductions, narrow elementwise ops, narrow outputs the
// payload never reads, and accumulations through an op without an f32 form
// here (math.exp) are left as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     f32) -> tensor<4xf32>
// CHECK-NOT:     arith.truncf
// CHECK:         math.exp %{{.*}} : bf16
// CHECK:         return
func.func @unchanged(%x: tensor<4x8xf32>, %y: tensor<4x8xbf16>, %i: tensor<4xf32>, %j: tensor<4xbf16>)
    -> (tensor<4xf32>, tensor<4x8xbf16>, tensor<4xbf16>, tensor<4xbf16>) {
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%i : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %0 = arith.addf %acc, %in : f32
      linalg.yield %0 : f32
  } -> tensor<4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<4x8xbf16>) outs(%y : tensor<4x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.negf %in : bf16
      linalg.yield %0 : bf16
  } -> tensor<4x8xbf16>
  %last = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x8xbf16>) outs(%j : tensor<4xbf16>) {
    ^bb0(%in: bf16, %acc: bf16):
      linalg.yield %in : bf16
  } -> tensor<4xbf16>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x8xbf16>) outs(%j : tensor<4xbf16>) {
    ^bb0(%in: bf16, %acc: bf16):
      %0 = math.exp %acc : bf16
      %1 = arith.addf %0, %in : bf16
      linalg.yield %1 : bf16
  } -> tensor<4xbf16>
  return %s, %n, %last, %e : tensor<4xf32>, tensor<4x8xbf16>, tensor<4xbf16>, tensor<4xbf16>
}
