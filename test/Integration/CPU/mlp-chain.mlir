// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu | FileCheck %s

// Tests, by execution, the numbers and the measured peak of a 3-layer MLP
// forward pass (public entry point @mlp, private @layer inlined into it).
// Every tensor is 32x32xf32 = 4096 B.
//
// Hand-computed peak: main holds x, w1, w2, w3 (16384 B). Elementwise fusion
// folds each ReLU into the next matmul, so each layer allocates only its
// matmul result, and the previous one is freed right after its last use (the
// next matmul): at most two layer tensors are live at once, so the peak is
// 16384 + 2 x 4096 = 24576 B after 4 + 3 allocations; y and the inputs
// (20480 B) are live when the report is printed.
// Values: inputs are ((a*i + b*j) mod m - m/2) * scale, dyadic, so every f32
// product and sum is exact; y[0, 0:4] computed exactly in Python:
// -0.021484375, -0.0234375, -0.025390625, 0.041015625.
//
// CHECK:      ckpt-runtime: peak_bytes=24576 live_bytes=20480 allocations=7 unknown_frees=0
// CHECK:      Unranked Memref
// CHECK-NEXT: {{\[}}[-0.0214844,   -0.0234375,   -0.0253906,   0.0410156]]

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @ckpt_runtime_print_report()

#id = affine_map<(i, j) -> (i, j)>

func.func private @layer(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

func.func @mlp(%x: tensor<32x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>,
               %w3: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %h1 = call @layer(%x, %w1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %h2 = call @layer(%h1, %w2) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %y = linalg.matmul ins(%h2, %w3 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}

/// Fills a 32x32 tensor with ((a*i + b*j) mod m - m/2) * scale: small
/// dyadic values, so every product and sum below is exact in f32.
func.func private @pattern(%a: index, %b: index, %m: index, %scale: f32) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<32x32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ai = arith.muli %a, %i : index
    %bj = arith.muli %b, %j : index
    %s = arith.addi %ai, %bj : index
    %r = arith.remui %s, %m : index
    %c2 = arith.constant 2 : index
    %h = arith.divui %m, %c2 : index
    %ri = arith.index_cast %r : index to i64
    %hi = arith.index_cast %h : index to i64
    %d = arith.subi %ri, %hi : i64
    %f = arith.sitofp %d : i64 to f32
    %v = arith.mulf %f, %scale : f32
    linalg.yield %v : f32
  } -> tensor<32x32xf32>
  return %t : tensor<32x32xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %quarter = arith.constant 0.25 : f32
  %eighth = arith.constant 0.125 : f32
  %x = call @pattern(%c1, %c2, %c5, %quarter) : (index, index, index, f32) -> tensor<32x32xf32>
  %w1 = call @pattern(%c3, %c1, %c7, %eighth) : (index, index, index, f32) -> tensor<32x32xf32>
  %w2 = call @pattern(%c2, %c3, %c5, %eighth) : (index, index, index, f32) -> tensor<32x32xf32>
  %w3 = call @pattern(%c1, %c1, %c7, %quarter) : (index, index, index, f32) -> tensor<32x32xf32>
  %y = call @mlp(%x, %w1, %w2, %w3) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  call @ckpt_runtime_print_report() : () -> ()
  %s = tensor.extract_slice %y[0, 0] [1, 4] [1, 1] : tensor<32x32xf32> to tensor<1x4xf32>
  %u = tensor.cast %s : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
