// Tests that the bundled example (the README's compiler-level demo) compiles, runs and
// prints the reference numbers: loss and gradient slices of the 2-layer MLP
// training step, checked against an exact float64 Python reference
// (loss 0.2550765, dw1[0,0:4] = -0.000736415 -0.00128168 0.000215709
// 0.00320554, dw2[0,0:4] = -0.000249624 -3.71933e-05 0.00014174
// -0.000167489; the loss's mean over 256 x 4 elements is summed in f64 by
// ckpt-widen-accumulators: summed in f32 it was 0.255069).
// The peak is the measured one for this pipeline: 9 tensors of 16 KiB live at
// once (the 4 inputs and 5 of the step's intermediates; the f64 accumulators
// of the long sums are small and not alive at the peak; 8 allocations, 11
// before elementwise gradients wrote into the gradients they read); it
// changes only when the pipeline changes what is materialized, which this
// test is meant to catch.
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK:      ckpt-runtime: peak_bytes=131136 live_bytes=98368 allocations=8 unknown_frees=0
// CHECK:      rank = 0
// CHECK-NEXT: [0.255076]
// CHECK:      rank = 2
// CHECK-NEXT: {{\[}}[-0.000736415,   -0.00128168,   0.000215709,   0.00320554]]
// CHECK:      rank = 2
// CHECK-NEXT: {{\[}}[-0.000249624,   -3.71933e-05,   0.00014174,   -0.000167489]]
