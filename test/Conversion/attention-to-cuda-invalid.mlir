// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-attention-to-cuda

// Tests that f64 attention (no kernel) fails with a diagnostic naming the fix.
func.func @f64(%q: memref<4x8x16xf64>, %o: memref<4x8x16xf64>, %lse: memref<4x8xf64>) {
  // expected-error @+1 {{has no fused CUDA kernel (f32, query of rank 2 to 4, head widths up to 256); decompose it first (ckpt-decompose-attention keep-cuda-kernels)}}
  ckpt.attention scale(0.25)
      ins(%q, %q, %q : memref<4x8x16xf64>, memref<4x8x16xf64>, memref<4x8x16xf64>)
      outs(%o, %lse : memref<4x8x16xf64>, memref<4x8xf64>)
  return
}

// -----

// Tests that a head wider than 256 fails.
func.func @wide(%q: memref<2x8x512xf32>, %o: memref<2x8x512xf32>, %lse: memref<2x8xf32>) {
  // expected-error @+1 {{has no fused CUDA kernel}}
  ckpt.attention scale(0.25)
      ins(%q, %q, %q : memref<2x8x512xf32>, memref<2x8x512xf32>, memref<2x8x512xf32>)
      outs(%o, %lse : memref<2x8x512xf32>, memref<2x8xf32>)
  return
}

// -----

// Tests that a query of rank 5 (three leading dimensions) fails.
func.func @rank5(%q: memref<2x2x2x8x16xf32>, %o: memref<2x2x2x8x16xf32>, %lse: memref<2x2x2x8xf32>) {
  // expected-error @+1 {{has no fused CUDA kernel}}
  ckpt.attention scale(0.25)
      ins(%q, %q, %q : memref<2x2x2x8x16xf32>, memref<2x2x2x8x16xf32>, memref<2x2x2x8x16xf32>)
      outs(%o, %lse : memref<2x2x2x8x16xf32>, memref<2x2x2x8xf32>)
  return
}

// -----

// Tests that attention on tensors (not bufferized) fails.
func.func @tensors(%q: tensor<4x8x16xf32>, %o: tensor<4x8x16xf32>, %lse: tensor<4x8xf32>) -> tensor<4x8x16xf32> {
  // expected-error @+1 {{must be on memrefs for ckpt-attention-to-cuda (bufferize first)}}
  %r:2 = ckpt.attention scale(0.25)
      ins(%q, %q, %q : tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>)
      outs(%o, %lse : tensor<4x8x16xf32>, tensor<4x8xf32>) -> tensor<4x8x16xf32>, tensor<4x8xf32>
  return %r#0 : tensor<4x8x16xf32>
}

// -----

// Tests that a callee declared with another type is reported, not called.
func.func private @ckpt_cuda_attention_f32(i32)
func.func @clash(%q: memref<4x8x16xf32>, %o: memref<4x8x16xf32>, %lse: memref<4x8xf32>) {
  // expected-error @+1 {{cannot call 'ckpt_cuda_attention_f32': it is declared with type}}
  ckpt.attention scale(0.25)
      ins(%q, %q, %q : memref<4x8x16xf32>, memref<4x8x16xf32>, memref<4x8x16xf32>)
      outs(%o, %lse : memref<4x8x16xf32>, memref<4x8xf32>)
  return
}
