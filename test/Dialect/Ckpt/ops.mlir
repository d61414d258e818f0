// RUN: ckpt-opt %s --split-input-file | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --mlir-print-op-generic | ckpt-opt --split-input-file | FileCheck %s

// Tests that a recompute region round-trips with its bindings and body.
// CHECK-LABEL: func.func @recompute_tensor
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X:.*]] = %{{.*}} : tensor<64xf32>) -> tensor<64xf32> {
// CHECK:           %[[E:.*]] = math.exp %[[X]] : tensor<64xf32>
// CHECK:           ckpt.yield %[[E]] : tensor<64xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @recompute_tensor(%a: tensor<64xf32>) -> tensor<64xf32> {
  %r = ckpt.recompute(%x = %a : tensor<64xf32>) -> tensor<64xf32> {
    %e = math.exp %x : tensor<64xf32>
    ckpt.yield %e : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// Tests several inputs and results, scalar inputs and an attribute dictionary.
// CHECK-LABEL: func.func @recompute_multi
// CHECK:         ckpt.recompute(%{{.*}} = %{{.*}} : tensor<8xf32>, %{{.*}} = %{{.*}} : f32) -> (tensor<8xf32>, tensor<8xf32>) {
// CHECK:         } attributes {ckpt.name = "pair"}
func.func @recompute_multi(%a: tensor<8xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = ckpt.recompute(%x = %a : tensor<8xf32>, %f = %s : f32) -> (tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %b = linalg.fill ins(%f : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %y = arith.mulf %x, %b : tensor<8xf32>
    ckpt.yield %y, %b : tensor<8xf32>, tensor<8xf32>
  } attributes {ckpt.name = "pair"}
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Tests donated inputs beside a discardable attribute.
// CHECK-LABEL: func.func @recompute_donated
// CHECK:         } attributes {ckpt.name = "relu", donated = array<i64: 0>}
func.func @recompute_donated(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = ckpt.recompute(%x = %a : tensor<8xf32>) -> tensor<8xf32> {
    %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %zero = arith.constant 0.0 : f32
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    ckpt.yield %y : tensor<8xf32>
  } attributes {ckpt.name = "relu", donated = array<i64: 0>}
  return %r : tensor<8xf32>
}

// -----

// Tests the buffer form of a recompute region (after bufferization).
// CHECK-LABEL: func.func @recompute_memref
// CHECK:         ckpt.recompute(%[[X:.*]] = %{{.*}} : memref<16xf32>) -> memref<16xf32> {
// CHECK:           memref.alloc
// CHECK:           linalg.exp ins(%[[X]] : memref<16xf32>)
func.func @recompute_memref(%a: memref<16xf32>) -> memref<16xf32> {
  %r = ckpt.recompute(%x = %a : memref<16xf32>) -> memref<16xf32> {
    %b = memref.alloc() : memref<16xf32>
    linalg.exp ins(%x : memref<16xf32>) outs(%b : memref<16xf32>)
    ckpt.yield %b : memref<16xf32>
  }
  return %r : memref<16xf32>
}

// -----

// Tests a user checkpoint region and the policy, name, phase and tangent
// attributes.
// CHECK-LABEL: func.func @checkpoint_and_attributes
// CHECK-SAME:    %{{.*}}: tensor<4x4xf32> {ckpt.tangent}
// CHECK:         arith.negf %{{.*}} {ckpt.name = "neg", ckpt.phase = #ckpt.phase<backward>, ckpt.policy = #ckpt.policy<must_recompute>}
// CHECK:         ckpt.checkpoint(%{{.*}} = %{{.*}} : tensor<4x4xf32>, %{{.*}} = %{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK:           linalg.matmul
// CHECK:           ckpt.yield
func.func @checkpoint_and_attributes(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>,
                                     %g: tensor<4x4xf32> {ckpt.tangent}) -> tensor<4x4xf32> {
  %n = arith.negf %g {ckpt.policy = #ckpt.policy<must_recompute>, ckpt.name = "neg",
                      ckpt.phase = #ckpt.phase<backward>} : tensor<4x4xf32>
  %y = ckpt.checkpoint(%x = %a : tensor<4x4xf32>, %v = %w : tensor<4x4xf32>) -> tensor<4x4xf32> {
    %c0 = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x4xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%x, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    ckpt.yield %m : tensor<4x4xf32>
  }
  %s = arith.addf %y, %n : tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Tests that every policy value parses and prints.
// CHECK-LABEL: func.func @policies
// CHECK:         #ckpt.policy<must_save>
// CHECK:         #ckpt.policy<prefer_save>
// CHECK:         #ckpt.policy<prefer_recompute>
// CHECK:         ckpt.phase = #ckpt.phase<forward>, ckpt.policy = #ckpt.policy<must_recompute>
func.func @policies(%a: f32) -> (f32, f32, f32, f32) {
  %0 = arith.addf %a, %a {ckpt.policy = #ckpt.policy<must_save>} : f32
  %1 = arith.addf %0, %a {ckpt.policy = #ckpt.policy<prefer_save>} : f32
  %2 = arith.addf %1, %a {ckpt.policy = #ckpt.policy<prefer_recompute>} : f32
  %3 = arith.addf %2, %a {ckpt.policy = #ckpt.policy<must_recompute>, ckpt.phase = #ckpt.phase<forward>} : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}
