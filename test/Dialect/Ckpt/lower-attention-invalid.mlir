// RUN: ckpt-opt %s --split-input-file --ckpt-lower-attention --verify-diagnostics

// Tests that attention on tensors must be bufferized first.
func.func @tensors(%q: tensor<8x4xf32>, %l: tensor<8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'ckpt.attention' op must be bufferized before ckpt-lower-attention}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %q, %q : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) outs(%q, %l : tensor<8x4xf32>, tensor<8xf32>) -> tensor<8x4xf32>, tensor<8xf32>
  return %r#0 : tensor<8x4xf32>
}

// -----

// Tests that bf16 attention is not lowered yet, with a message that says so.
func.func @bf16(%q: memref<8x4xbf16>, %l: memref<8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op on 'bf16' is not lowered yet (f32 and f64 are)}}
  ckpt.attention scale(1.0) ins(%q, %q, %q : memref<8x4xbf16>, memref<8x4xbf16>, memref<8x4xbf16>) outs(%q, %l : memref<8x4xbf16>, memref<8xf32>)
  return
}
