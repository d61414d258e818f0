// Tests that the estimated peak (ckpt-report) matches the peak measured by
// libckpt_runtime when results are written in place into their destination
// (a ReLU and an accumulation into buffers that die there).
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report="format=json output=%t.json" -o /dev/null
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out step | FileCheck %s
//
// Hand count (64x64xf32 = 16384 B): arguments x, w (32768 B); buffer E1 holds
// z, m, the in-place ReLU r and the in-place sum s; buffer E2 holds z2 and m2.
// Both are alive while s is computed: 32768 + 2 x 16384 = 65536 B.
// CHECK: step: estimated_peak_bytes=65536 measured_peak_bytes=65536 relative_error=0.0000

#id = affine_map<(i, j) -> (i, j)>

func.func private @ckpt_runtime_reset()
func.func private @ckpt_runtime_print_report()

func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%m : tensor<64x64xf32>) {
  ^bb0(%o: f32):
    %v = arith.maximumf %o, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%r, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m2 : tensor<64x64xf32>) outs(%r : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.addf %in, %o : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

func.func @main() {
  %a = arith.constant 0.5 : f32
  %b = arith.constant -0.25 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %x = linalg.fill ins(%a : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %w = linalg.fill ins(%b : f32) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  call @ckpt_runtime_reset() : () -> ()
  %r = call @step(%x, %w) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  call @ckpt_runtime_print_report() : () -> ()
  return
}
