// Tests that ckpt-compile --backend=iree-cpu measures a step with i1
// arguments (masks): iree-run-module does not parse an i1 splat, so they
// are fed as .npy files of zeros.
// REQUIRES: iree
// RUN: rm -rf %t && mkdir -p %t
// RUN: ckpt-compile %s --entry=masked --backend=iree-cpu -o %t/masked.vmfb --remat-report=%t/r.json
// RUN: FileCheck %s --input-file=%t/r.json
// CHECK: "iree": {
// CHECK-DAG: "dtype": "i1"
// CHECK-DAG: "peak_bytes": {{[1-9][0-9]*}}
func.func @masked(%mask: tensor<4x3xi1>, %x: tensor<4x3xf32>, %v: tensor<5xi1>) -> tensor<4x3xf32> {
  %z = arith.constant dense<0.0> : tensor<4x3xf32>
  %r = arith.select %mask, %x, %z : tensor<4x3xi1>, tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
