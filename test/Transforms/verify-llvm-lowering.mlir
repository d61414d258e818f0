// RUN: ckpt-opt %s --ckpt-verify-llvm-lowering | FileCheck %s

// Tests that a fully lowered module passes unchanged.
// CHECK-LABEL: llvm.func @f
// CHECK:         llvm.fadd
llvm.func @f(%a: f32) -> f32 {
  %0 = llvm.fadd %a, %a : f32
  llvm.return %0 : f32
}
