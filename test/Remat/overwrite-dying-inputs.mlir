// RUN: ckpt-opt %s --ckpt-overwrite-dying-inputs --split-input-file | FileCheck %s
// RUN: ckpt-opt %s --ckpt-overwrite-dying-inputs --split-input-file \
// RUN:   --ckpt-report="format=json" -o /dev/null | FileCheck %s --check-prefix=PEAK

#x = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#r = affine_map<(d0, d1) -> (d0)>

// A ReLU's gradient over the incoming gradient, which nothing reads after
// it: the result goes into the gradient's buffer.
// CHECK-LABEL: func.func @relu_gradient
// CHECK:         %[[RELU:[0-9]+]] = linalg.generic
// CHECK:         %[[GRAD:[0-9]+]] = linalg.generic
// CHECK:         %[[MASKED:[0-9]+]] = linalg.generic {{.*}} ins(%[[GRAD]], %[[RELU]] : tensor<64x64xf32>, tensor<64x64xf32>) outs(%[[GRAD]] : tensor<64x64xf32>)
// CHECK:         return %[[MASKED]]
// Two buffers of 16 KiB (the gradient, the ReLU's output) beside the two
// arguments, not three.
// PEAK: "peak_bytes": 65536
func.func @relu_gradient(%y: tensor<64x64xf32>, %dy: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %relu = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x64xf32>) outs(%e0 : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %grad = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%dy : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %masked = linalg.generic {indexing_maps = [#x, #x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%grad, %relu : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%g: f32, %r: f32, %out: f32):
    %positive = arith.cmpf ogt, %r, %zero : f32
    %v = arith.select %positive, %g, %zero : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %masked : tensor<64x64xf32>
}

// -----

#x = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#r = affine_map<(d0, d1) -> (d0)>

// Not tied: an input read after the op, an argument (the caller's buffer),
// a transposed read, a reshape of another value, a value the payload reads
// at other elements, a value read twice, and a reduction.
// Each op keeps its own empty tensor.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-11: tensor.empty()
// CHECK-NOT:      tensor.empty()
// CHECK:          return
func.func @kept_apart(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %e11 = tensor.empty() : tensor<8x8xf32>
  %v = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x8xf32>) outs(%e11 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  // Read after: %v is returned.
  %e1 = tensor.empty() : tensor<8x8xf32>
  %later = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  // An argument.
  %e2 = tensor.empty() : tensor<8x8xf32>
  %argument = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  // Transposed.
  %e12 = tensor.empty() : tensor<8x8xf32>
  %w = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x8xf32>) outs(%e12 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8x8xf32>
  %transposed = linalg.generic {indexing_maps = [#t, #x], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x8xf32>) outs(%e3 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  // Read at other elements by the payload.
  %e13 = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x8xf32>) outs(%e13 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  %e4 = tensor.empty() : tensor<8x8xf32>
  %gathered = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x8xf32>) outs(%e4 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %first = tensor.extract %p[%c0, %c0] : tensor<8x8xf32>
    %s = arith.addf %in, %first : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  // Read twice.
  %e14 = tensor.empty() : tensor<8x8xf32>
  %q = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x8xf32>) outs(%e14 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  %e5 = tensor.empty() : tensor<8x8xf32>
  %twice = linalg.generic {indexing_maps = [#x, #t, #x], iterator_types = ["parallel", "parallel"]}
      ins(%q, %q : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e5 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  // A reduction.
  %e15 = tensor.empty() : tensor<8x8xf32>
  %r0 = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<8x8xf32>) outs(%e15 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  %e6 = tensor.empty() : tensor<8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e6 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#x, #r], iterator_types = ["parallel", "reduction"]}
      ins(%r0 : tensor<8x8xf32>) outs(%fill : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %v, %later, %argument, %transposed, %gathered, %twice, %sum : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>
}
