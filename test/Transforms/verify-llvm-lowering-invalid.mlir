// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-verify-llvm-lowering

// Tests that an op outside the LLVM dialect is named, once per op name.
llvm.func @f(%a: f32) -> f32 {
  // expected-error @+1 {{'arith.addf' was not lowered to the LLVM dialect}}
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %0, %a : f32
  llvm.return %1 : f32
}

// -----

// Tests that a leftover cast from a partial conversion is reported.
llvm.func @g(%a: i64) -> i64 {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' was not lowered to the LLVM dialect}}
  %0 = builtin.unrealized_conversion_cast %a : i64 to index
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  llvm.return %1 : i64
}

// -----

// Tests that a func-level op left behind is reported.
// expected-error @+1 {{'func.func' was not lowered to the LLVM dialect}}
func.func @h() {
  // expected-error @+1 {{'func.return' was not lowered to the LLVM dialect}}
  return
}

// -----

// Tests that without allow-gpu-binary the host side of a GPU module is
// reported.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'gpu.binary' was not lowered to the LLVM dialect}}
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  llvm.func @host() {
    %c1 = llvm.mlir.constant(1 : index) : i64
    // expected-error @+1 {{'gpu.launch_func' was not lowered to the LLVM dialect}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
