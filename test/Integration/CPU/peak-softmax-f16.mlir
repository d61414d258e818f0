// Tests ops that decompose or reduce into small buffers: a softmax (row max
// and row sum buffers of 256 B) and an f16 tensor (sizes rounded up to the
// 64-byte alignment the runtime is asked for); estimated and measured peaks
// agree.
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report="format=json output=%t.json" -o /dev/null
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out step | FileCheck %s
// CHECK: step: estimated_peak_bytes=[[PEAK:[0-9]+]] measured_peak_bytes=[[PEAK]] relative_error=0.0000

func.func private @ckpt_runtime_reset()
func.func private @ckpt_runtime_print_report()

func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>, %h: tensor<30x30xf16>)
    -> (tensor<64x64xf32>, tensor<30x30xf16>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %s = linalg.softmax dimension(1) ins(%m : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %t = arith.mulf %s, %m : tensor<64x64xf32>
  %hh = arith.addf %h, %h : tensor<30x30xf16>
  return %t, %hh : tensor<64x64xf32>, tensor<30x30xf16>
}

func.func @main() {
  %a = arith.constant 0.125 : f32
  %b = arith.constant 1.5 : f16
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.fill ins(%a : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %w = linalg.fill ins(%a : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<30x30xf16>
  %h = linalg.fill ins(%b : f16) outs(%e2 : tensor<30x30xf16>) -> tensor<30x30xf16>
  call @ckpt_runtime_reset() : () -> ()
  %r:2 = call @step(%x, %w, %h) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<30x30xf16>) -> (tensor<64x64xf32>, tensor<30x30xf16>)
  call @ckpt_runtime_print_report() : () -> ()
  return
}
