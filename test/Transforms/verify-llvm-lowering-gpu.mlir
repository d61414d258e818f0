// RUN: ckpt-opt %s --ckpt-verify-llvm-lowering=allow-gpu-binary=true | FileCheck %s

// Tests that with allow-gpu-binary a host module keeps its gpu.binary and
// gpu.launch_func (verify-llvm-lowering-invalid.mlir checks that both are
// reported without the option).
// CHECK-LABEL: gpu.binary @kernels
// CHECK:       llvm.func @host
// CHECK:         gpu.launch_func @kernels::@k
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  llvm.func @host() {
    %c1 = llvm.mlir.constant(1 : index) : i64
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    llvm.return
  }
}
