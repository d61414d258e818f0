// Tests where the runtime's exit report goes: stdout, stderr, or appended to
// a file, and that nothing is printed without CKPT_RUNTIME_REPORT.
// RUN: ckpt-opt %s --ckpt-cpu-pipeline > %t.ll.mlir
// RUN: env CKPT_RUNTIME_REPORT=stdout %run_cpu %t.ll.mlir 2>/dev/null | FileCheck %s
// RUN: env CKPT_RUNTIME_REPORT=stderr %run_cpu %t.ll.mlir 2>&1 >/dev/null | FileCheck %s
// RUN: rm -f %t.report
// RUN: env CKPT_RUNTIME_REPORT=%t.report %run_cpu %t.ll.mlir
// RUN: env CKPT_RUNTIME_REPORT=%t.report %run_cpu %t.ll.mlir
// RUN: FileCheck %s --check-prefix=FILE --input-file=%t.report
// RUN: %run_cpu %t.ll.mlir | count 0
// RUN: env CKPT_RUNTIME_REPORT=%t.missing-dir/report %run_cpu %t.ll.mlir 2>&1 | FileCheck %s --check-prefix=BADPATH

// One 64x64xf32 buffer (16384 B), produced by a public function (so nothing
// folds it away), returned to main and freed there.
// CHECK: ckpt-runtime: peak_bytes=16384 live_bytes=0 allocations=1 unknown_frees=0
// FILE-COUNT-2: ckpt-runtime: peak_bytes=16384 live_bytes=0 allocations=1 unknown_frees=0
// BADPATH: ckpt-runtime: cannot open report file '{{.*}}missing-dir/report'

func.func @make(%v: f32) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %f : tensor<64x64xf32>
}

func.func @main() {
  %c = arith.constant 1.0 : f32
  %t = call @make(%c) : (f32) -> tensor<64x64xf32>
  return
}
