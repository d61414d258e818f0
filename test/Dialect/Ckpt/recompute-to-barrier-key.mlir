// RUN: ckpt-opt %s --split-input-file --ckpt-recompute-to-barrier="barrier-on=key" | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-recompute-to-barrier="barrier-on=key" --canonicalize --cse | FileCheck %s --check-prefix=CSE
// RUN: not ckpt-opt %s --split-input-file --ckpt-recompute-to-barrier="barrier-on=tensors" 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: ckpt-recompute-to-barrier: barrier-on must be 'values' or 'key', got 'tensors'

#id = affine_map<(d0) -> (d0)>
#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>

// Tests barrier-on=key: no tensor goes through a barrier; the region's key
// (a constant through the barrier, XORed with itself) is made at the
// function's entry; the recomputed elementwise op XORs the key, ANDed with
// the first element of the value computed just before the region (its
// anchor), into its bits; the reduction on outside values reads its
// smallest input through a keyed copy; fills are left alone. CSE then
// keeps the recomputation apart.
// CHECK-LABEL: func.func @keyed
// CHECK:         %[[C:.*]] = arith.constant 0 : i64
// CHECK:         %[[B:.*]] = "util.optimization_barrier"(%[[C]]) : (i64) -> i64
// CHECK:         %[[K:.*]] = arith.xori %[[B]], %[[C]] : i64
// CHECK:         %[[K32:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK-NOT:     "util.optimization_barrier"(%{{.*}}) : (tensor
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:      math.exp
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:      math.tanh
// CHECK:         %[[A:.*]] = tensor.extract_slice %[[T]][0] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[A]] : tensor<8xf32>, tensor<f32>)
// CHECK:           math.exp
// CHECK:           arith.bitcast %{{.*}} : f32 to i32
// CHECK:           arith.andi %[[K32]], %{{.*}} : i32
// CHECK:           arith.xori
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<f32>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<8x4xf32>, tensor<4x4xf32>)
// CHECK-NOT:     ckpt.
// CSE-LABEL: func.func @keyed
// CSE-COUNT-2:  math.exp
func.func @keyed(%x: tensor<8xf32>, %a: tensor<8x4xf32>, %w: tensor<4x4xf32>)
    -> (tensor<8xf32>, tensor<8x4xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%e : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.tanh %in : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %r:2 = ckpt.recompute(%xx = %x : tensor<8xf32>, %aa = %a : tensor<8x4xf32>,
                        %ww = %w : tensor<4x4xf32>) -> (tensor<8xf32>, tensor<8x4xf32>) {
    %re0 = tensor.empty() : tensor<8xf32>
    %re = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%xx : tensor<8xf32>) outs(%re0 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<8xf32>
    %cst0 = arith.constant 0.0 : f32
    %m0 = tensor.empty() : tensor<8x4xf32>
    %zero = linalg.fill ins(%cst0 : f32) outs(%m0 : tensor<8x4xf32>) -> tensor<8x4xf32>
    %mm = linalg.generic {indexing_maps = [#mk, #kn, #mn],
                          iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%aa, %ww : tensor<8x4xf32>, tensor<4x4xf32>) outs(%zero : tensor<8x4xf32>) {
    ^bb0(%l: f32, %r: f32, %o: f32):
      %p = arith.mulf %l, %r : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> tensor<8x4xf32>
    ckpt.yield %re, %mm : tensor<8xf32>, tensor<8x4xf32>
  }
  %s = arith.addf %t, %r#0 : tensor<8xf32>
  return %s, %r#1 : tensor<8xf32>, tensor<8x4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Tests that a value only the function returns is anchored to the next
// elementwise op that reads a tensor (not a fill): that op reads its first
// element into the key, so a scheduler cannot sink its producer to the end.
// CHECK-LABEL: func.func @returned
// CHECK:         %[[K:.*]] = arith.xori
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:      math.exp
// CHECK:         linalg.fill
// CHECK:         %[[A:.*]] = tensor.extract_slice %[[G]][0] [1] [1]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[A]] : tensor<8xf32>, tensor<f32>)
// CHECK:           math.tanh
// CHECK:           arith.andi
// CHECK:         return %[[G]]
func.func @returned(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %cst = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %f0 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%f0 : tensor<8xf32>) -> tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.tanh %in : f32
    %w = arith.addf %v, %out : f32
    linalg.yield %w : f32
  } -> tensor<8xf32>
  return %g, %t : tensor<8xf32>, tensor<8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Tests that f64 values are keyed without a bitcast of their bits (IREE
// demotes f64 to f32 by default, which would leave an f32-to-i64 bitcast):
// the key's zero, ANDed with the f32 anchor's bits, is added as a negative
// zero, bit-exact; CSE still keeps the recomputation apart.
// CHECK-LABEL: func.func @wide_floats
// CHECK:         %[[K:.*]] = arith.xori
// CHECK:         %[[A:.*]] = tensor.extract_slice %{{.*}}[0] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[A]] : tensor<8xf32>, tensor<f32>) outs(%{{.*}} : tensor<8xf64>)
// CHECK:           %[[V:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK:           %[[AB:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:           %[[AW:.*]] = arith.extui %[[AB]] : i32 to i64
// CHECK:           %[[Z:.*]] = arith.andi %[[K]], %[[AW]] : i64
// CHECK:           %[[ZF:.*]] = arith.uitofp %[[Z]] : i64 to f64
// CHECK:           %[[NZ:.*]] = arith.negf %[[ZF]] : f64
// CHECK:           %[[S:.*]] = arith.addf %[[V]], %[[NZ]] : f64
// CHECK:           linalg.yield %[[S]] : f64
// CHECK-NOT:     arith.bitcast %{{.*}} : f64
// CSE-LABEL: func.func @wide_floats
// CSE-COUNT-2:  arith.extf
func.func @wide_floats(%x: tensor<8xf32>) -> (tensor<8xf64>, tensor<8xf64>) {
  %e0 = tensor.empty() : tensor<8xf64>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf64>) {
  ^bb0(%in: f32, %out: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<8xf64>
  %f0 = tensor.empty() : tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%f0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.tanh %in : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %r = ckpt.recompute(%xx = %x : tensor<8xf32>) -> (tensor<8xf64>) {
    %re0 = tensor.empty() : tensor<8xf64>
    %re = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%xx : tensor<8xf32>) outs(%re0 : tensor<8xf64>) {
    ^bb0(%in: f32, %out: f64):
      %v = arith.extf %in : f32 to f64
      linalg.yield %v : f64
    } -> tensor<8xf64>
    ckpt.yield %re : tensor<8xf64>
  }
  %tt = arith.extf %t : tensor<8xf32> to tensor<8xf64>
  %s = arith.addf %w, %tt : tensor<8xf64>
  return %s, %r : tensor<8xf64>, tensor<8xf64>
}
