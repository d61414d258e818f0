// RUN: ckpt-opt %s --verify-diagnostics --ckpt-verify-llvm-lowering=allow-gpu-binary=true

// Tests that allow-gpu-binary accepts only the binary and its launches: an
// unoutlined launch is still reported.
llvm.func @host() {
  %c1 = llvm.mlir.constant(1 : index) : i64
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' was not lowered to the LLVM dialect}}
  %i = builtin.unrealized_conversion_cast %c1 : i64 to index
  // expected-error @+1 {{'gpu.launch' was not lowered to the LLVM dialect}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %i, %y = %i, %z = %i) threads(%tx, %ty, %tz) in (%a = %i, %b = %i, %c = %i) {
    // expected-error @+1 {{'gpu.terminator' was not lowered to the LLVM dialect}}
    gpu.terminator
  }
  llvm.return
}
