// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-lower-recompute

// Tests that lowering an unexpanded checkpoint region is an error, never a
// silent no-op.
func.func @unexpanded_checkpoint(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{'ckpt.checkpoint' op must be expanded by the ckpt-remat pass before lowering}}
  %r = ckpt.checkpoint(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %x : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}
