// RUN: ckpt-opt %s --split-input-file | ckpt-opt --split-input-file | FileCheck %s

// Tests that ckpt.attention round-trips on tensors, causal, with Sq != Sk,
// Dv != D and bf16 inputs (f32 log-sum-exp).
// CHECK-LABEL: func.func @forward
// CHECK: ckpt.attention causal scale(2.500000e-01) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8x16xbf16>, tensor<2x4x32x16xbf16>, tensor<2x4x32x8xbf16>) outs(%{{.*}}, %{{.*}} : tensor<2x4x8x8xbf16>, tensor<2x4x8xf32>) -> tensor<2x4x8x8xbf16>, tensor<2x4x8xf32>
func.func @forward(%q: tensor<2x4x8x16xbf16>, %k: tensor<2x4x32x16xbf16>, %v: tensor<2x4x32x8xbf16>) -> (tensor<2x4x8x8xbf16>, tensor<2x4x8xf32>) {
  %e = tensor.empty() : tensor<2x4x8x8xbf16>
  %l = tensor.empty() : tensor<2x4x8xf32>
  %o, %lse = ckpt.attention causal scale(0.25)
      ins(%q, %k, %v : tensor<2x4x8x16xbf16>, tensor<2x4x32x16xbf16>, tensor<2x4x32x8xbf16>)
      outs(%e, %l : tensor<2x4x8x8xbf16>, tensor<2x4x8xf32>) -> tensor<2x4x8x8xbf16>, tensor<2x4x8xf32>
  return %o, %lse : tensor<2x4x8x8xbf16>, tensor<2x4x8xf32>
}

// -----

// Tests that ckpt.attention_grad round-trips on memrefs (no results), not
// causal, rank 2 (no leading dimensions).
// CHECK-LABEL: func.func @grad_buffers
// CHECK: ckpt.attention_grad scale(-5.000000e-01) ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<8x4xf64>, memref<6x4xf64>, memref<6x3xf64>, memref<8x3xf64>, memref<8xf64>, memref<8x3xf64>) outs(%{{.*}}, %{{.*}}, %{{.*}} : memref<8x4xf64>, memref<6x4xf64>, memref<6x3xf64>)
// CHECK-NOT: ->
func.func @grad_buffers(%q: memref<8x4xf64>, %k: memref<6x4xf64>, %v: memref<6x3xf64>, %o: memref<8x3xf64>, %lse: memref<8xf64>, %do: memref<8x3xf64>, %dq: memref<8x4xf64>, %dk: memref<6x4xf64>, %dv: memref<6x3xf64>) {
  ckpt.attention_grad scale(-0.5)
      ins(%q, %k, %v, %o, %lse, %do : memref<8x4xf64>, memref<6x4xf64>, memref<6x3xf64>, memref<8x3xf64>, memref<8xf64>, memref<8x3xf64>)
      outs(%dq, %dk, %dv : memref<8x4xf64>, memref<6x4xf64>, memref<6x3xf64>)
  return
}

// -----

// Tests that both ops round-trip with a key padding mask ([..., Sk] of i1).
// CHECK-LABEL: func.func @key_mask
// CHECK: ckpt.attention causal scale(2.500000e-01) key_mask(%[[M:.*]] : tensor<2x4x32xi1>) ins(
// CHECK: ckpt.attention_grad scale(2.500000e-01) key_mask(%[[M]] : tensor<2x4x32xi1>) ins(
func.func @key_mask(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x32x16xf32>, %v: tensor<2x4x32x8xf32>, %m: tensor<2x4x32xi1>, %do: tensor<2x4x8x8xf32>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) {
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %l = tensor.empty() : tensor<2x4x8xf32>
  %o, %lse = ckpt.attention causal scale(0.25) key_mask(%m : tensor<2x4x32xi1>)
      ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x8xf32>)
      outs(%e, %l : tensor<2x4x8x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>, tensor<2x4x8xf32>
  %dq, %dk, %dv = ckpt.attention_grad scale(0.25) key_mask(%m : tensor<2x4x32xi1>)
      ins(%q, %k, %v, %o, %lse, %do : tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x8xf32>, tensor<2x4x8x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8x8xf32>)
      outs(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x8xf32>) -> tensor<2x4x8x16xf32>, tensor<2x4x32x16xf32>, tensor<2x4x32x8xf32>
  return %o, %dq : tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>
}
