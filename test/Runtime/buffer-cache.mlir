// The runtime's buffer cache (CKPT_RUNTIME_CACHE=1): buffers of 64 KiB and
// more freed in one iteration are handed out again in the next; the results
// and the counted peak are those without it.
// RUN: ckpt-opt %s --ckpt-cpu-pipeline > %t.ll.mlir
// RUN: env CKPT_RUNTIME_REPORT=stdout %run_cpu %t.ll.mlir | FileCheck %s
// RUN: env CKPT_RUNTIME_CACHE=1 CKPT_RUNTIME_REPORT=stdout %run_cpu %t.ll.mlir | FileCheck %s

// Four 128x128xf32 buffers (65536 B), one live at a time, filled with 0..3;
// the sum of their first elements is 6.
// CHECK: 6
// CHECK: ckpt-runtime: peak_bytes=65536 live_bytes=0 allocations=4 unknown_frees=0

func.func @make(%v: f32) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %f : tensor<128x128xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %ii = arith.index_cast %i : index to i32
    %v = arith.sitofp %ii : i32 to f32
    %t = func.call @make(%v) : (f32) -> tensor<128x128xf32>
    %x = tensor.extract %t[%c0, %c0] : tensor<128x128xf32>
    %next = arith.addf %acc, %x : f32
    scf.yield %next : f32
  }
  vector.print %sum : f32
  return
}
