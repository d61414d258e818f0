// Tests a recompute region whose clone allocates a temporary of its own: the
// region's result buffer is the one it yields, its temporary is freed inside
// it, and estimated and measured peaks agree.
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report="format=json output=%t.json" -o /dev/null
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out step | FileCheck %s
//
// Hand count: arguments x, w (32768 B). A = x w dies after B = A w; C = B w.
// The region recomputes exp(x w): its product t (16384 B) is a temporary and
// exp(t) (16384 B) becomes the region's result, while C is alive:
// 32768 + 16384 (C) + 16384 (t) + 16384 (result) = 81920 B; the forward part
// peaks lower (A, B, C never all alive: 32768 + 2 x 16384 = 65536 B).
// CHECK: step: estimated_peak_bytes=81920 measured_peak_bytes=81920 relative_error=0.0000

func.func private @ckpt_runtime_reset()
func.func private @ckpt_runtime_print_report()

func.func private @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = call @mm(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = call @mm(%a, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = call @mm(%b, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %again = ckpt.recompute(%xx = %x : tensor<64x64xf32>, %ww = %w : tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
    %t = linalg.matmul ins(%xx, %ww : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
    %e2 = tensor.empty() : tensor<64x64xf32>
    %u = linalg.exp ins(%t : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
    ckpt.yield %u : tensor<64x64xf32>
  }
  %d = call @mm(%c, %again) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

func.func @main() {
  %a = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.fill ins(%a : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %w = linalg.fill ins(%a : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  call @ckpt_runtime_reset() : () -> ()
  %r = call @step(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  call @ckpt_runtime_print_report() : () -> ()
  return
}
