// Tests the device targets: built-in names, a JSON target file, and the
// roofline (max of compute and memory time plus launch overhead).
// RUN: ckpt-opt %s --ckpt-report="format=json target=h100-sxm" -o /dev/null | FileCheck %s --check-prefix=H100
// RUN: ckpt-opt %s --ckpt-report="format=json target=a100-80g" -o /dev/null | FileCheck %s --check-prefix=A100
// RUN: ckpt-opt %s --ckpt-report="format=json target=h200" -o /dev/null | FileCheck %s --check-prefix=H200
// RUN: ckpt-opt %s --ckpt-report="format=json target=cpu" -o /dev/null | FileCheck %s --check-prefix=CPU
// RUN: ckpt-opt %s --ckpt-report="format=json target=%S/Inputs/good-target.json" -o /dev/null | FileCheck %s --check-prefix=FILE
// RUN: ckpt-opt %s --ckpt-report="format=json target=h100-sxm allow-tf32=true" -o /dev/null | FileCheck %s --check-prefix=TF32

// A 1024^3 f32 matmul: 2.147e9 FLOPs, 16 MiB moved (A, B read, C read and
// written). Compute-bound everywhere: on the H100, 2.147e9 / 67e12 = 3.205e-5
// s + 3e-6 s launch; with TF32, 2.147e9 / 494.7e12 = 4.34e-6 s, which is
// below the memory time 16777216 / 3.35e12 = 5.008e-6 s, so memory-bound.
// On the file target: 2.147e9 / 1e12 = 2.147e-3 s + 1e-6 s.
// H100: "target": "h100-sxm"
// H100: "total": 2147483648
// H100: "estimated_time_s": 3.50{{[0-9]*}}e-05
// A100: "target": "a100-80g"
// A100: "estimated_time_s": 0.0001131{{[0-9]*}}
// H200: "target": "h200"
// H200: "estimated_time_s": 3.50{{[0-9]*}}e-05
// CPU: "target": "cpu"
// CPU: "estimated_time_s": 0.0214{{[0-9]*}}
// FILE: "target": "test-gpu"
// FILE: "estimated_time_s": 0.002148{{[0-9]*}}
// TF32: "estimated_time_s": 8.00{{[0-9]*}}e-06
func.func @big_matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
