// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-recompute-to-barrier
// RUN: not ckpt-opt %S/recompute-to-barrier.mlir --split-input-file --ckpt-recompute-to-barrier=barrier=nodot 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: ckpt-recompute-to-barrier: barrier must name an op as 'dialect.op' (such as util.optimization_barrier), got 'nodot'

// Tests that an unexpanded user checkpoint is an error.
func.func @unexpanded(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{must be expanded (ckpt-expand-checkpoints or ckpt-remat) before ckpt-recompute-to-barrier}}
  %r = ckpt.checkpoint(%a = %x : tensor<16xf32>) -> tensor<16xf32> {
    %e = math.exp %a : tensor<16xf32>
    ckpt.yield %e : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
