// Tests that a view (extract_slice, expand_shape) keeps the buffer it views
// alive: estimated and measured peaks agree.
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report="format=json output=%t.json" -o /dev/null
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out step | FileCheck %s
//
// Hand count: arguments x, w, w2 (3 x 16384 B); A = x w stays alive through
// its slice until C is computed, with B = x w2 (16384 B) and C (8192 B):
// 49152 + 16384 + 16384 + 8192 = 90112 B. Freeing A after its last direct
// use (the slice) would give 73728 B. The result is a view of C.
// CHECK: step: estimated_peak_bytes=90112 measured_peak_bytes=90112 relative_error=0.0000

func.func private @ckpt_runtime_reset()
func.func private @ckpt_runtime_print_report()

func.func private @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<32x8x8xf32> {
  %a = call @mm(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %top = tensor.extract_slice %a[0, 0] [32, 64] [1, 1] : tensor<64x64xf32> to tensor<32x64xf32>
  %b = call @mm(%x, %w2) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %c = linalg.matmul ins(%top, %b : tensor<32x64xf32>, tensor<64x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = tensor.expand_shape %c [[0], [1, 2]] output_shape [32, 8, 8] : tensor<32x64xf32> into tensor<32x8x8xf32>
  return %r : tensor<32x8x8xf32>
}

func.func @main() {
  %a = arith.constant 0.5 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.fill ins(%a : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %w = linalg.fill ins(%a : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %w2 = linalg.fill ins(%a : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  call @ckpt_runtime_reset() : () -> ()
  %r = call @step(%x, %w, %w2) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<32x8x8xf32>
  call @ckpt_runtime_print_report() : () -> ()
  return
}
