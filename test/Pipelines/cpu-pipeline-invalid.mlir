// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-cpu-pipeline

// Tests that an unexpanded checkpoint region stops the pipeline with a message
// naming the pass to run, not a generic bufferization failure.
func.func @unexpanded_checkpoint(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{'ckpt.checkpoint' op must be expanded by the ckpt-remat pass before bufferization}}
  %r = ckpt.checkpoint(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %x : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// Tests that an op the pipeline cannot lower is named by the final check.
func.func @unlowerable(%a: f32, %b: f32) -> f32 {
  // expected-error @+1 {{'complex.create' was not lowered to the LLVM dialect}}
  %c = complex.create %a, %b : complex<f32>
  // expected-error @+1 {{'complex.abs' was not lowered to the LLVM dialect}}
  %r = complex.abs %c : complex<f32>
  return %r : f32
}
