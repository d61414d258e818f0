// RUN: ckpt-opt %s --split-input-file --ckpt-generalize-and-fuse | FileCheck %s

// An element type conversion and a broadcast subtraction (BatchNorm's f64
// statistics of an f32 activation, the activation centered on its mean)
// read by several ops are repeated in each reader: no f64 copy of the
// activation and no centered copy beside it. A sum of two whole tensors
// (a residual) read twice stays one tensor: repeated, it would keep both
// of its inputs alive instead of one.
// CHECK-LABEL: func.func @statistics
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4x16xf32>, %[[M:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<8x4x16xf32>)
// CHECK-NOT:     tensor<8x4x16xf64>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<8x4x16xf32>) outs(%{{.*}} : tensor<4xf64>)
// CHECK:           arith.extf
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<8x4x16xf32>) outs(%{{.*}} : tensor<4xf64>)
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[M]] : tensor<8x4x16xf32>, tensor<4xf32>)
// CHECK:           arith.subf
// CHECK:           math.tanh
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[M]] : tensor<8x4x16xf32>, tensor<4xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<8x4x16xf32>, tensor<8x4x16xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<8x4x16xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<8x4x16xf32>)
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#channel = affine_map<(d0, d1, d2) -> (d1)>
func.func @statistics(%x: tensor<8x4x16xf32>, %m: tensor<4xf32>, %y: tensor<8x4x16xf32>)
    -> (tensor<4xf64>, tensor<4xf64>, tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>) {
  %zero = arith.constant 0.0 : f64
  %e64 = tensor.empty() : tensor<8x4x16xf64>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x4x16xf32>) outs(%e64 : tensor<8x4x16xf64>) {
  ^bb0(%in: f32, %out: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<8x4x16xf64>
  %es = tensor.empty() : tensor<4xf64>
  %z = linalg.fill ins(%zero : f64) outs(%es : tensor<4xf64>) -> tensor<4xf64>
  %sum = linalg.generic {indexing_maps = [#id, #channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%wide : tensor<8x4x16xf64>) outs(%z : tensor<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %v = arith.addf %in, %out : f64
    linalg.yield %v : f64
  } -> tensor<4xf64>
  %z2 = linalg.fill ins(%zero : f64) outs(%es : tensor<4xf64>) -> tensor<4xf64>
  %squares = linalg.generic {indexing_maps = [#id, #channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%wide : tensor<8x4x16xf64>) outs(%z2 : tensor<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %s = arith.mulf %in, %in : f64
    %v = arith.addf %s, %out : f64
    linalg.yield %v : f64
  } -> tensor<4xf64>
  %e = tensor.empty() : tensor<8x4x16xf32>
  %centered = linalg.generic {indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m : tensor<8x4x16xf32>, tensor<4xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %mean: f32, %out: f32):
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  } -> tensor<8x4x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%centered : tensor<8x4x16xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.tanh %in : f32
    linalg.yield %v : f32
  } -> tensor<8x4x16xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%centered : tensor<8x4x16xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x4x16xf32>
  %residual = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<8x4x16xf32>, tensor<8x4x16xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.addf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<8x4x16xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%residual : tensor<8x4x16xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.tanh %in : f32
    linalg.yield %v : f32
  } -> tensor<8x4x16xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%residual : tensor<8x4x16xf32>) outs(%e : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x4x16xf32>
  return %sum, %squares, %t, %u, %p, %q : tensor<4xf64>, tensor<4xf64>, tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>
}

// -----

// The reversal of a 1x1 kernel's window (what importers write for every
// convolution's input gradient: filters[f, c, 0 - i, 0 - j]) reads each
// element at its own position: it is the filters. A 3x3 kernel's is a
// reversal and stays.
// CHECK-LABEL: func.func @reversed_windows
// CHECK-SAME:    (%[[W1:.*]]: tensor<8x4x1x1xf32>, %[[W3:.*]]: tensor<8x4x3x3xf32>)
// CHECK:         %[[R3:.*]] = linalg.generic
// CHECK:           tensor.extract %[[W3]]
// CHECK:         return %[[W1]], %[[R3]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @reversed_windows(%w1: tensor<8x4x1x1xf32>, %w3: tensor<8x4x3x3xf32>)
    -> (tensor<8x4x1x1xf32>, tensor<8x4x3x3xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e1 = tensor.empty() : tensor<8x4x1x1xf32>
  %r1 = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e1 : tensor<8x4x1x1xf32>) {
  ^bb0(%out: f32):
    %f = linalg.index 0 : index
    %c = linalg.index 1 : index
    %v = tensor.extract %w1[%f, %c, %c0, %c0] : tensor<8x4x1x1xf32>
    linalg.yield %v : f32
  } -> tensor<8x4x1x1xf32>
  %e3 = tensor.empty() : tensor<8x4x3x3xf32>
  %r3 = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e3 : tensor<8x4x3x3xf32>) {
  ^bb0(%out: f32):
    %f = linalg.index 0 : index
    %c = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ri = arith.subi %c2, %i : index
    %rj = arith.subi %c2, %j : index
    %v = tensor.extract %w3[%f, %c, %ri, %rj] : tensor<8x4x3x3xf32>
    linalg.yield %v : f32
  } -> tensor<8x4x3x3xf32>
  return %r1, %r3 : tensor<8x4x1x1xf32>, tensor<8x4x3x3xf32>
}
