// RUN: ckpt-opt %s --ckpt-generalize-and-fuse | FileCheck %s

// An elementwise producer that reads its own output (an accumulation, as
// ckpt-autodiff writes adjoints) is not fused into a consumer that
// broadcasts it: upstream fusion would make the accumulator an output of
// the fused op indexed by (d0) in a (d0, d1) loop, adding once per d1
// (wrong results; gradcheck-embedding-cross-entropy.mlir executes such a
// case). A producer that does not read its output is still fused.

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @accumulating
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: arith.addf %out
// CHECK: linalg.generic {{.*}}ins(%[[ACC]], %{{.*}} : tensor<4xf64>, tensor<4x5xf64>)
func.func @accumulating(%g: tensor<4xf64>, %init: tensor<4xf64>, %x: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %c = arith.constant 2.0 : f64
  %acc = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%g : tensor<4xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %m = arith.mulf %in, %c : f64
    %s = arith.addf %out, %m : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  %e = tensor.empty() : tensor<4x5xf64>
  %r = linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %x : tensor<4xf64>, tensor<4x5xf64>) outs(%e : tensor<4x5xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    linalg.yield %p : f64
  } -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}

// CHECK-LABEL: func.func @plain
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @plain(%g: tensor<4xf64>, %x: tensor<4x5xf64>) -> tensor<4x5xf64> {
  %c = arith.constant 2.0 : f64
  %e1 = tensor.empty() : tensor<4xf64>
  %twice = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%g : tensor<4xf64>) outs(%e1 : tensor<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %m = arith.mulf %in, %c : f64
    linalg.yield %m : f64
  } -> tensor<4xf64>
  %e = tensor.empty() : tensor<4x5xf64>
  %r = linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%twice, %x : tensor<4xf64>, tensor<4x5xf64>) outs(%e : tensor<4x5xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    linalg.yield %p : f64
  } -> tensor<4x5xf64>
  return %r : tensor<4x5xf64>
}
