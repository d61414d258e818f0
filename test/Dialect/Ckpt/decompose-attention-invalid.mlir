// RUN: ckpt-opt %s --split-input-file --ckpt-decompose-attention --verify-diagnostics

// Tests that bf16 attention is not decomposed yet, with a message that says so.
func.func @bf16(%q: tensor<8x4xbf16>, %l: tensor<8xf32>) -> tensor<8x4xbf16> {
  // expected-error @+1 {{'ckpt.attention' op on 'bf16' is not decomposed yet (f32 and f64 are)}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %q, %q : tensor<8x4xbf16>, tensor<8x4xbf16>, tensor<8x4xbf16>) outs(%q, %l : tensor<8x4xbf16>, tensor<8xf32>) -> tensor<8x4xbf16>, tensor<8xf32>
  return %r#0 : tensor<8x4xbf16>
}

// -----

// Tests that attention already on memrefs is refused.
func.func @buffers(%q: memref<8x4xf32>, %l: memref<8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op must be on tensors for ckpt-decompose-attention}}
  ckpt.attention scale(1.0) ins(%q, %q, %q : memref<8x4xf32>, memref<8x4xf32>, memref<8x4xf32>) outs(%q, %l : memref<8x4xf32>, memref<8xf32>)
  return
}
