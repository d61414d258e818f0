// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): a token embedding written as a gather
// (a select-reduction over the vocabulary: the table's adjoint is the
// scatter-add), logits through the tied table, and the cross-entropy with
// integer labels (row max, log-sum-exp and the label's logit picked by a
// select-reduction). Before ckpt-generalize-and-fuse stopped fusing
// accumulating producers, the fused adjoint of the logits was wrong
// (max_rel_error 0.76): this is the regression test for it.
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

module {
func.func @loss(%embedding: tensor<5x3xf64>) -> tensor<f64>
    attributes {ckpt.differentiate} {
  %ids = arith.constant dense<[1, 3, 0, 3]> : tensor<4xi64>
  %labels = arith.constant dense<[3, 0, 3, 2]> : tensor<4xi64>
  %c1 = arith.constant 0.00000000000000000e+00 : f64
  %e2 = tensor.empty() : tensor<4x3xf64>
  %c3 = arith.constant 0.00000000000000000e+00 : f64
  %f4 = linalg.fill ins(%c3 : f64) outs(%e2 : tensor<4x3xf64>) -> tensor<4x3xf64>
  %emb5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ids, %embedding : tensor<4xi64>, tensor<5x3xf64>) outs(%f4 : tensor<4x3xf64>) {
  ^bb0(%id6: i64, %x7: f64, %acc8: f64):
    %v9 = linalg.index 2 : index
    %vi10 = arith.index_cast %v9 : index to i64
    %hit11 = arith.cmpi eq, %id6, %vi10 : i64
    %pick12 = arith.select %hit11, %x7, %c1 : f64
    %s13 = arith.addf %acc8, %pick12 : f64
    linalg.yield %s13 : f64
  } -> tensor<4x3xf64>
  %e14 = tensor.empty() : tensor<4x5xf64>
  %c15 = arith.constant 0.00000000000000000e+00 : f64
  %f16 = linalg.fill ins(%c15 : f64) outs(%e14 : tensor<4x5xf64>) -> tensor<4x5xf64>
  %logits17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%emb5, %embedding : tensor<4x3xf64>, tensor<5x3xf64>) outs(%f16 : tensor<4x5xf64>) {
  ^bb0(%a18: f64, %a19: f64, %acc20: f64):
    %p21 = arith.mulf %a18, %a19 : f64
    %r22 = arith.addf %acc20, %p21 : f64
    linalg.yield %r22 : f64
  } -> tensor<4x5xf64>
  %e23 = tensor.empty() : tensor<4xf64>
  %c24 = arith.constant -1.00000000000000002e+30 : f64
  %f25 = linalg.fill ins(%c24 : f64) outs(%e23 : tensor<4xf64>) -> tensor<4xf64>
  %max26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%logits17 : tensor<4x5xf64>) outs(%f25 : tensor<4xf64>) {
  ^bb0(%a27: f64, %acc28: f64):
    %r29 = arith.maximumf %acc28, %a27 : f64
    linalg.yield %r29 : f64
  } -> tensor<4xf64>
  %e30 = tensor.empty() : tensor<4xf64>
  %c31 = arith.constant 0.00000000000000000e+00 : f64
  %f32 = linalg.fill ins(%c31 : f64) outs(%e30 : tensor<4xf64>) -> tensor<4xf64>
  %sumexp33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%logits17, %max26 : tensor<4x5xf64>, tensor<4xf64>) outs(%f32 : tensor<4xf64>) {
  ^bb0(%a34: f64, %a35: f64, %acc36: f64):
    %c37 = arith.subf %a34, %a35 : f64
    %x38 = math.exp %c37 : f64
    %r39 = arith.addf %acc36, %x38 : f64
    linalg.yield %r39 : f64
  } -> tensor<4xf64>
  %c40 = arith.constant 0.00000000000000000e+00 : f64
  %e41 = tensor.empty() : tensor<4xf64>
  %c42 = arith.constant 0.00000000000000000e+00 : f64
  %f43 = linalg.fill ins(%c42 : f64) outs(%e41 : tensor<4xf64>) -> tensor<4xf64>
  %picked44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%logits17, %labels : tensor<4x5xf64>, tensor<4xi64>) outs(%f43 : tensor<4xf64>) {
  ^bb0(%x45: f64, %lab46: i64, %acc47: f64):
    %v48 = linalg.index 1 : index
    %vi49 = arith.index_cast %v48 : index to i64
    %hit50 = arith.cmpi eq, %lab46, %vi49 : i64
    %pick51 = arith.select %hit50, %x45, %c40 : f64
    %r52 = arith.addf %acc47, %pick51 : f64
    linalg.yield %r52 : f64
  } -> tensor<4xf64>
  %c53 = arith.constant 2.50000000000000000e-01 : f64
  %e54 = tensor.empty() : tensor<f64>
  %c55 = arith.constant 0.00000000000000000e+00 : f64
  %f56 = linalg.fill ins(%c55 : f64) outs(%e54 : tensor<f64>) -> tensor<f64>
  %loss57 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%max26, %sumexp33, %picked44 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) outs(%f56 : tensor<f64>) {
  ^bb0(%a58: f64, %a59: f64, %a60: f64, %acc61: f64):
    %lg62 = math.log %a59 : f64
    %t163 = arith.addf %a58, %lg62 : f64
    %t264 = arith.subf %t163, %a60 : f64
    %t365 = arith.mulf %t264, %c53 : f64
    %r266 = arith.addf %acc61, %t365 : f64
    linalg.yield %r266 : f64
  } -> tensor<f64>
  return %loss57 : tensor<f64>
}
}

