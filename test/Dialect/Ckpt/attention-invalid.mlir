// RUN: ckpt-opt %s --split-input-file --verify-diagnostics

// Tests that the query needs a sequence and a channel dimension.
func.func @rank(%q: tensor<8xf32>, %o: tensor<8xf32>, %l: tensor<f32>) {
  // expected-error @+1 {{'ckpt.attention' op needs a query of rank >= 2 ([..., Sq, D]), got 'tensor<8xf32>'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %q, %q : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%o, %l : tensor<8xf32>, tensor<f32>) -> tensor<8xf32>, tensor<f32>
  return
}

// -----

// Tests that keys need the query's channel count.
func.func @key_width(%q: tensor<2x8x4xf32>, %k: tensor<2x8x5xf32>, %o: tensor<2x8x4xf32>, %l: tensor<2x8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'key' of shape [2, 8, 4], got 'tensor<2x8x5xf32>'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %k, %q : tensor<2x8x4xf32>, tensor<2x8x5xf32>, tensor<2x8x4xf32>) outs(%o, %l : tensor<2x8x4xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8xf32>
  return
}

// -----

// Tests that a key of another rank than the query's is reported as such
// (its sizes are not read where they do not exist).
func.func @key_rank(%q: tensor<2x8x4xf32>, %k: tensor<4xf32>, %o: tensor<2x8x4xf32>, %l: tensor<2x8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'key' of rank 3, got 'tensor<4xf32>'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %k, %q : tensor<2x8x4xf32>, tensor<4xf32>, tensor<2x8x4xf32>) outs(%o, %l : tensor<2x8x4xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8xf32>
  return
}

// -----

// Tests that a value of another rank is reported before its sizes are used.
func.func @value_rank(%q: tensor<2x8x4xf32>, %v: tensor<8x4xf32>, %o: tensor<2x8x4xf32>, %l: tensor<2x8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'value' of rank 3, got 'tensor<8x4xf32>'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %q, %v : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<8x4xf32>) outs(%o, %l : tensor<2x8x4xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8xf32>
  return
}

// -----

// Tests that the leading dimensions agree.
func.func @batch(%q: tensor<2x8x4xf32>, %k: tensor<3x8x4xf32>, %o: tensor<2x8x4xf32>, %l: tensor<2x8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'key' of shape [2, 8, 4], got 'tensor<3x8x4xf32>'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %k, %k : tensor<2x8x4xf32>, tensor<3x8x4xf32>, tensor<3x8x4xf32>) outs(%o, %l : tensor<2x8x4xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8xf32>
  return
}

// -----

// Tests that bf16 attention keeps its log-sum-exp in f32.
func.func @lse_type(%q: tensor<8x4xbf16>, %o: tensor<8x4xbf16>, %l: tensor<8xbf16>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'lse' of element type 'f32', got 'tensor<8xbf16>'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %q, %q : tensor<8x4xbf16>, tensor<8x4xbf16>, tensor<8x4xbf16>) outs(%o, %l : tensor<8x4xbf16>, tensor<8xbf16>) -> tensor<8x4xbf16>, tensor<8xbf16>
  return
}

// -----

// Tests that integer attention is refused.
func.func @integers(%q: tensor<8x4xi32>, %l: tensor<8xi32>) {
  // expected-error @+1 {{'ckpt.attention' op needs f16, bf16, f32 or f64 elements, got 'i32'}}
  %r:2 = ckpt.attention scale(1.0) ins(%q, %q, %q : tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32>) outs(%q, %l : tensor<8x4xi32>, tensor<8xi32>) -> tensor<8x4xi32>, tensor<8xi32>
  return
}

// -----

// Tests that a zero scale is refused.
func.func @zero_scale(%q: tensor<8x4xf32>, %l: tensor<8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs a finite, nonzero scale, got 0.000000e+00}}
  %r:2 = ckpt.attention scale(0.0) ins(%q, %q, %q : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) outs(%q, %l : tensor<8x4xf32>, tensor<8xf32>) -> tensor<8x4xf32>, tensor<8xf32>
  return
}

// -----

// Tests that tensors and memrefs do not mix.
func.func @mixed(%q: tensor<8x4xf32>, %o: memref<8x4xf32>, %l: memref<8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op mixes tensors and memrefs: 'out' is 'memref<8x4xf32>'}}
  ckpt.attention scale(1.0) ins(%q, %q, %q : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) outs(%o, %l : memref<8x4xf32>, memref<8xf32>)
  return
}

// -----

// Tests that the gradient of the key has the key's shape.
func.func @grad_key(%q: tensor<8x4xf32>, %k: tensor<6x4xf32>, %l: tensor<8xf32>) {
  // expected-error @+1 {{'ckpt.attention_grad' op needs 'grad_key' of shape [6, 4], got 'tensor<8x4xf32>'}}
  %r:3 = ckpt.attention_grad scale(1.0) ins(%q, %k, %k, %q, %l, %q : tensor<8x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8x4xf32>) outs(%q, %q, %k : tensor<8x4xf32>, tensor<8x4xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>, tensor<8x4xf32>, tensor<6x4xf32>
  return
}

// -----

// Tests that a key mask has the keys' leading dimensions and length.
func.func @key_mask_shape(%q: tensor<2x8x4xf32>, %m: tensor<2x7xi1>, %o: tensor<2x8x4xf32>, %l: tensor<2x8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'key_mask' of shape [2, 8], got 'tensor<2x7xi1>'}}
  %r:2 = ckpt.attention scale(1.0) key_mask(%m : tensor<2x7xi1>) ins(%q, %q, %q : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o, %l : tensor<2x8x4xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8xf32>
  return
}

// -----

// Tests that a key mask is boolean (an additive mask is not a padding mask).
func.func @key_mask_type(%q: tensor<2x8x4xf32>, %m: tensor<2x8xf32>, %o: tensor<2x8x4xf32>, %l: tensor<2x8xf32>) {
  // expected-error @+1 {{'ckpt.attention' op needs 'key_mask' of element type 'i1', got 'tensor<2x8xf32>'}}
  %r:2 = ckpt.attention scale(1.0) key_mask(%m : tensor<2x8xf32>) ins(%q, %q, %q : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) outs(%o, %l : tensor<2x8x4xf32>, tensor<2x8xf32>) -> tensor<2x8x4xf32>, tensor<2x8xf32>
  return
}
