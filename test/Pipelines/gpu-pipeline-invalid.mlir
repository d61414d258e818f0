// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-gpu-pipeline

// Tests that a dense tensor constant (a host global after bufferization)
// stops the pipeline with a message instead of a kernel reading host memory.
func.func @dense_constant(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{lives in host memory that GPU kernels cannot read; ckpt-gpu-pipeline does not support dense tensor constants yet}}
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = arith.addf %a, %c : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Tests that an unexpanded checkpoint region is reported as in the CPU
// pipeline.
func.func @unexpanded_checkpoint(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  // expected-error @+1 {{'ckpt.checkpoint' op must be expanded by the ckpt-remat pass before bufferization}}
  %r = ckpt.checkpoint(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %x : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// Tests that host-side work no conversion handles is named by the final
// check (which accepts only LLVM ops, gpu.binary and gpu.launch_func): a
// scalar erf on the host has no LLVM lowering (kernels call libdevice).
func.func @host_erf(%a: f32) -> f32 {
  // expected-error @+1 {{'math.erf' was not lowered to the LLVM dialect}}
  %r = math.erf %a : f32
  return %r : f32
}
