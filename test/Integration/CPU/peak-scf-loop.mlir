// Tests a loop carrying a tensor in place and allocating a temporary in its
// body each iteration: the temporary counts once (it is freed inside the
// body), and estimated and measured peaks agree.
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report="format=json output=%t.json" -o /dev/null
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out step | FileCheck %s
//
// Hand count: arguments x, w (32768 B); the loop-carried accumulator (one
// buffer for the whole loop, 16384 B) and the body's product t (16384 B):
// 65536 B.
// CHECK: step: estimated_peak_bytes=65536 measured_peak_bytes=65536 relative_error=0.0000

#id = affine_map<(i, j) -> (i, j)>

func.func private @ckpt_runtime_reset()
func.func private @ckpt_runtime_print_report()

func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> tensor<64x64xf32> {
    %et = tensor.empty() : tensor<64x64xf32>
    %zt = linalg.fill ins(%zero : f32) outs(%et : tensor<64x64xf32>) -> tensor<64x64xf32>
    %t = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%zt : tensor<64x64xf32>) -> tensor<64x64xf32>
    %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t : tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %v = arith.addf %in, %o : f32
      linalg.yield %v : f32
    } -> tensor<64x64xf32>
    scf.yield %n : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
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
