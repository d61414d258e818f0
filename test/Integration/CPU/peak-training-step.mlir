// Tests the bundled MLP training step (forward, loss, backward): estimated and
// measured peaks of @train_step agree.
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-tensor-prep --ckpt-report="format=json output=%t.json functions=train_step" -o /dev/null
// RUN: ckpt-opt %ckpt_src_root/examples/mlp-train-step.mlir --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: %compare_peak %t.json %t.out train_step | FileCheck %s
// CHECK: train_step: estimated_peak_bytes=131136 measured_peak_bytes=131136 relative_error=0.0000
