// Tests a value with uses far apart (a skip connection): it stays alive until
// its last use, and estimated and measured peaks agree.
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report="format=json output=%t.json" -o /dev/null
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out step | FileCheck %s
//
// Hand count: arguments x, w (32768 B). A = x w is used by B, by D and by the
// final sum. While C = B w is computed, A, B and C are alive; while D = A C
// is computed, A, C and D are: 32768 + 3 x 16384 = 81920 B.
// CHECK: step: estimated_peak_bytes=81920 measured_peak_bytes=81920 relative_error=0.0000

#id = affine_map<(i, j) -> (i, j)>

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
  %d = call @mm(%a, %c) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x64xf32>) outs(%d : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.addf %in, %o : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
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
