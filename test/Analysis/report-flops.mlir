// Tests the cost model per op family through the JSON report (each function
// holds one op; arguments are the operands).
// RUN: ckpt-opt %s --ckpt-report="format=json" -o /dev/null | FileCheck %s

// Tests that a matmul costs 2*M*N*K FLOPs.
// CHECK-LABEL: "name": "matmul"
// CHECK:       "total": 2097152
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// Tests that a batch matmul costs 2*B*M*N*K FLOPs.
// CHECK-LABEL: "name": "batch_matmul"
// CHECK:       "total": 1048576
func.func @batch_matmul(%a: tensor<4x32x64xf32>, %b: tensor<4x64x64xf32>, %c: tensor<4x32x64xf32>) -> tensor<4x32x64xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x32x64xf32>, tensor<4x64x64xf32>) outs(%c : tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
  return %r : tensor<4x32x64xf32>
}

// Tests that a matmul with a transposed operand costs the same 2*M*N*K.
// CHECK-LABEL: "name": "matmul_transpose_b"
// CHECK:       "total": 2097152
func.func @matmul_transpose_b(%a: tensor<64x128xf32>, %bt: tensor<128x128xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<64x128xf32>, tensor<128x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// Tests that a convolution costs 2 x output size x window x input channels:
// 2 * (1*14*14*16) * (3*3) * 8.
// CHECK-LABEL: "name": "conv"
// CHECK:       "total": 451584
func.func @conv(%in: tensor<1x16x16x8xf32>, %f: tensor<3x3x8x16xf32>, %out: tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf ins(%in, %f : tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) outs(%out : tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32>
  return %r : tensor<1x14x14x16xf32>
}

// Tests that an elementwise add costs one FLOP per element and reads both
// inputs and writes the output (3 x 16384 B).
// CHECK-LABEL: "name": "add"
// CHECK:       "total": 4096
// CHECK:       "bytes_moved": 49152
func.func @add(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = arith.addf %a, %b : tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Tests that a transcendental function costs 8 FLOPs per element.
// CHECK-LABEL: "name": "exp"
// CHECK:       "total": 32768
func.func @exp(%a: tensor<64x64xf32>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.exp ins(%a : tensor<64x64xf32>) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Tests that a sum reduction costs one FLOP per input element.
// CHECK-LABEL: "name": "reduce"
// CHECK:       "total": 4096
func.func @reduce(%a: tensor<64x64xf32>, %o: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.reduce ins(%a : tensor<64x64xf32>) outs(%o : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}

// Tests that fill, transpose, broadcast and copy cost no FLOPs but move
// bytes: fill writes 16384 B, transpose and copy read and write 16384 B
// each, broadcast reads 256 B and writes 16384 B.
// CHECK-LABEL: "name": "data_movement"
// CHECK:       "total": 0
// CHECK:       "bytes_moved": 98560
func.func @data_movement(%a: tensor<64x64xf32>, %v: tensor<64xf32>, %o: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %c = arith.constant 1.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = linalg.transpose ins(%a : tensor<64x64xf32>) outs(%o : tensor<64x64xf32>) permutation = [1, 0]
  %b = linalg.broadcast ins(%v : tensor<64xf32>) outs(%o : tensor<64x64xf32>) dimensions = [1]
  %k = linalg.copy ins(%a : tensor<64x64xf32>) outs(%o : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %f, %t, %b, %k : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// Tests that reshapes and slices cost nothing.
// CHECK-LABEL: "name": "views"
// CHECK:       "total": 0
// CHECK:       "bytes_moved": 0
// CHECK:       "kernel_launches": 0
func.func @views(%a: tensor<64x64xf32>) -> (tensor<4096xf32>, tensor<8x64xf32>) {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<64x64xf32> into tensor<4096xf32>
  %s = tensor.extract_slice %a[0, 0] [8, 64] [1, 1] : tensor<64x64xf32> to tensor<8x64xf32>
  return %c, %s : tensor<4096xf32>, tensor<8x64xf32>
}

// Tests that a loop with a static trip count costs its body times the trips.
// CHECK-LABEL: "name": "loop"
// CHECK:       "total": 16384
func.func @loop(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> tensor<64x64xf32> {
    %n = linalg.add ins(%acc, %acc : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// Tests that a recompute region costs its body.
// CHECK-LABEL: "name": "recompute"
// CHECK:       "total": 8192
func.func @recompute(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = ckpt.recompute(%x = %a : tensor<64x64xf32>) -> tensor<64x64xf32> {
    %m = arith.mulf %x, %x : tensor<64x64xf32>
    %s = arith.addf %m, %x : tensor<64x64xf32>
    ckpt.yield %s : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
