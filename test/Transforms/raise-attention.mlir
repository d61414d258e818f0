// RUN: ckpt-opt %s --split-input-file --ckpt-raise-attention | FileCheck %s

// Tests the zoo's form: scores scaled, keys after the query masked to -1e9.
// CHECK-LABEL: func.func @causal_scaled
// CHECK: %[[K:.*]] = linalg.transpose ins(%{{.*}} : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<2x8x4xf32>) permutation = [0, 2, 1]
// CHECK: %[[A:.*]]:2 = ckpt.attention causal scale(5.000000e-01) ins(%{{.*}}, %[[K]], %{{.*}} : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>)
// CHECK-NOT: linalg.softmax
// CHECK-NOT: linalg.batch_matmul
// CHECK: return %[[A]]#0
func.func @causal_scaled(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %m1 = arith.constant -1.0 : f32
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<2x8x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%em : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %later, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %ep = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<2x8x8xf32>) outs(%ep : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Tests a mask that keeps keys at or before the query (i >= j), then divides by 4.
// CHECK-LABEL: func.func @kept_where_before
// CHECK: ckpt.attention causal scale(2.500000e-01)
func.func @kept_where_before(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 4.0 : f32
  %neg = arith.constant -1.0e9 : f32
  %m1 = arith.constant -1.0 : f32
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<2x8x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%em : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi uge, %i, %j : index
    %r = arith.select %keep, %x, %neg : f32
    %d = arith.divf %r, %c : f32
    linalg.yield %d : f32
  } -> tensor<2x8x8xf32>
  %ep = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<2x8x8xf32>) outs(%ep : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Tests that probabilities with another use are left alone.
// CHECK-LABEL: func.func @probabilities_reused
// CHECK-NOT: ckpt.attention
// CHECK: linalg.softmax
func.func @probabilities_reused(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %m1 = arith.constant -1.0 : f32
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<2x8x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%em : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %later, %neg, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %ep = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<2x8x8xf32>) outs(%ep : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o, %p : tensor<2x8x4xf32>, tensor<2x8x8xf32>
}

// -----

// Tests that a select to -1 is not taken as a mask.
// CHECK-LABEL: func.func @not_a_mask
// CHECK-NOT: ckpt.attention
// CHECK: linalg.softmax
func.func @not_a_mask(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %m1 = arith.constant -1.0 : f32
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<2x8x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%em : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi ugt, %j, %i : index
    %r = arith.select %later, %m1, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %ep = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<2x8x8xf32>) outs(%ep : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Tests that a negative scale is left alone (it would turn a mask applied first into +1e9).
// CHECK-LABEL: func.func @negative_scale
// CHECK-NOT: ckpt.attention
// CHECK: linalg.softmax
func.func @negative_scale(%q: tensor<2x8x4xf32>, %kt: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> (tensor<2x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant -0.5 : f32
  %neg = arith.constant -1.0e9 : f32
  %m1 = arith.constant -1.0 : f32
  %es = tensor.empty() : tensor<2x8x8xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%zs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %em = tensor.empty() : tensor<2x8x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x8x8xf32>) outs(%em : tensor<2x8x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %ep = tensor.empty() : tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%m : tensor<2x8x8xf32>) outs(%ep : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %eo = tensor.empty() : tensor<2x8x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%zo : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}
