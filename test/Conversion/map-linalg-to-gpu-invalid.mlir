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
