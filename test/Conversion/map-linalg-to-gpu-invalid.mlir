// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-map-linalg-to-gpu
// RUN: not ckpt-opt %s --ckpt-map-linalg-to-gpu=threads-per-block=48 2>&1 | FileCheck %s

// Tests that a linalg op still on tensors is an error (bufferize first).
func.func @on_tensors(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected a linalg op on memrefs (run bufferization first)}}
  %y = linalg.copy ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// Tests that a block size that is not whole warps is rejected.
// CHECK: threads-per-block must be a multiple of 32 between 32 and 1024, got 48

// -----

// Tests that attention, which has no kernel yet, is refused with the way out.
func.func @attention(%q: memref<8x4xf32>, %l: memref<8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op has no GPU kernel yet; decompose it into linalg first (ckpt-decompose-attention, as ckpt-gpu-pipeline does)}}
  ckpt.attention scale(1.0) ins(%q, %q, %q : memref<8x4xf32>, memref<8x4xf32>, memref<8x4xf32>) outs(%q, %l : memref<8x4xf32>, memref<8xf32>)
  return
}
