// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-remat="budget=0.9 report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-remat="budget=1.0" | FileCheck %s --check-prefix=NOOP

// Tests that ckpt-remat recomputes exp(x), the value kept from the forward
// part to its late use, right before that use: the peak goes from 24576 B
// (x, w and four 4 KiB buffers) to 20480 B, under the 0.9 budget (22118 B).
// CHECK-LABEL: func.func @step
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} ins(%[[X:arg0]] : tensor<32x32xf32>)
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<32x32xf32>, tensor<32x32xf32>)
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[RX:.*]] = %[[X]] : tensor<32x32xf32>) -> tensor<32x32xf32> {
// CHECK:           linalg.generic {{.*}} ins(%[[RX]] : tensor<32x32xf32>)
// CHECK:             math.exp
// CHECK:           ckpt.yield
// CHECK:         }
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[R]] : tensor<32x32xf32>, tensor<32x32xf32>)
// REPORT:      "name": "step",
// REPORT:      "solver": "auto(greedy)",
// REPORT:      "budget_bytes": 22118,
// REPORT:      "baseline_peak_bytes": 24576,
// REPORT:      "peak_bytes": 20480,
// REPORT:      "recompute_count": 1,
// REPORT:      "extra_flops": 8192,
// REPORT:      "recomputed": [
// REPORT:        "value": "linalg.generic",
// REPORT:        "location": "{{.*}}remat.mlir:[[@LINE+11]]:8",
// REPORT:        "bytes": 4096,

// Tests that a budget the program already meets changes nothing.
// NOOP-LABEL: func.func @step
// NOOP-NOT:     ckpt.recompute
// NOOP:         return

func.func @step(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.exp ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%b, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.add ins(%b, %c : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %d = linalg.matmul ins(%t, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.add ins(%d, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
