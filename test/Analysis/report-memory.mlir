// Tests the memory figures of the report: peak location, the buffers alive
// there (named with ckpt.name), argument and constant bytes, saved
// activations with and without phase markers, and element sizes.
// RUN: ckpt-opt %s --split-input-file --ckpt-report="format=json" -o /dev/null | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-report -o /dev/null | FileCheck %s --check-prefix=TABLE

// Tests that the peak is found where the most bytes are alive: the fill of
// "second" is written out of place (its empty tensor e1 is shared), so it
// allocates while "first" and e1's buffer (allocated at the empty tensor,
// later holding "third") are alive. Also tests that the
// largest buffers there are listed under their ckpt.name, and that without
// phase markers the saved activations are the buffers kept across the peak
// (first and second).
// CHECK-LABEL: "name": "chain"
// CHECK:       "argument_bytes": 32768
// CHECK:       "peak_bytes": 81920
// CHECK:       "peak_op": {
// CHECK-NEXT:    "name": "linalg.fill",
// CHECK-NEXT:    "location": "{{.*}}report-memory.mlir:[[@LINE+29]]:9",
// CHECK-NEXT:    "program_point": 5
// CHECK:       "live_at_peak": [
// CHECK:         "name": "%arg0",
// CHECK:         "kind": "argument"
// CHECK:         "name": "%arg1",
// CHECK:         "name": "first",
// CHECK-NEXT:    "location": "{{.*}}report-memory.mlir:[[@LINE+20]]:8",
// CHECK-NEXT:    "type": "tensor<64x64xf32>",
// CHECK-NEXT:    "bytes": 16384,
// CHECK-NEXT:    "kind": "allocation"
// CHECK:         "name": "third",
// CHECK:         "name": "second",
// CHECK:       "saved_activation_bytes": 32768,
// CHECK:       "constant_bytes": 0,
// CHECK:       "phase_markers": false,
// TABLE-LABEL: function @chain
// TABLE:         peak {{ *}}81920 B  at point 5 (linalg.fill, {{.*}}report-memory.mlir:[[@LINE+12]]:9)
// TABLE:         saved activations {{ *}}32768 B  (no phase markers: values alive across the peak)
// TABLE:         largest buffers alive at the peak:
// TABLE-NEXT:      16384 B  argument   %arg0  tensor<64x64xf32>
// TABLE-NEXT:      16384 B  argument   %arg1  tensor<64x64xf32>
// TABLE-NEXT:      16384 B  allocation first  tensor<64x64xf32>
func.func @chain(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %a = linalg.matmul {ckpt.name = "first"} ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = linalg.matmul {ckpt.name = "second"} ins(%a, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul {ckpt.name = "third"} ins(%b, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.add ins(%a, %c : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

// Tests phase markers: ops marked backward, and everything depending on a
// ckpt.tangent argument, are the backward pass; the forward buffers they use
// are the saved activations (h, 16384 B; the buffer reserved by an empty
// tensor counts in the phase of the op that writes it, here backward).
// CHECK-LABEL: "name": "marked"
// CHECK:       "saved_activation_bytes": 16384,
// CHECK:       "phase_markers": true,
// CHECK:       "flops": {
// CHECK-NEXT:    "forward": 4096,
// CHECK-NEXT:    "backward": 8192,
func.func @marked(%x: tensor<64x64xf32>, %g: tensor<64x64xf32> {ckpt.tangent})
    -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %e = tensor.empty() : tensor<64x64xf32>
  %h = linalg.add ins(%x, %x : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %dh = linalg.mul ins(%g, %h : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %dx = linalg.add ins(%dh, %dh : tensor<64x64xf32>, tensor<64x64xf32>) outs(%dh : tensor<64x64xf32>) {ckpt.phase = #ckpt.phase<backward>} -> tensor<64x64xf32>
  return %h, %dx : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Tests that tensor constants are counted apart (they become globals) and
// that sub-byte elements take a whole byte: tensor<64x64xi1> is 4096 B.
// CHECK-LABEL: "name": "constants_and_i1"
// CHECK:       "argument_bytes": 4096
// CHECK:       "peak_bytes": 8192
// CHECK:       "constant_bytes": 16384,
func.func @constants_and_i1(%m: tensor<64x64xi1>) -> tensor<64x64xi1> {
  %k = arith.constant dense<1.0> : tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %k : tensor<64x64xi1>, tensor<64x64xf32>) outs(%e : tensor<64x64xi1>) {
  ^bb0(%a: i1, %b: f32, %o: i1):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %b, %z : f32
    %q = arith.andi %a, %p : i1
    linalg.yield %q : i1
  } -> tensor<64x64xi1>
  return %r : tensor<64x64xi1>
}

// -----

// Tests that a small tensor counts with its allocation rounded up to the
// 64-byte buffer alignment: tensor<10xf32> (40 B) allocates 64 B.
// CHECK-LABEL: "name": "small"
// CHECK:       "argument_bytes": 64
// CHECK:       "peak_bytes": 128
func.func @small(%a: tensor<10xf32>) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %r = linalg.exp ins(%a : tensor<10xf32>) outs(%e : tensor<10xf32>) -> tensor<10xf32>
  return %r : tensor<10xf32>
}
