// REQUIRES: blas
// RUN: ckpt-run %s --entry=step --gemm=blas --compare --remat-budget=min --remat-solver=greedy --remat-report=%t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json

// Tests that a loop over tensors is recomputed whole: with gemm=blas the
// three 1x1 convolutions become loops over the images
// (ckpt-convolution-to-gemm), and %a, the first one's result, is kept from
// its first use to its last. Recomputing its loop there (from %x and %w,
// alive anyway) lowers the peak by one 4096 B activation less the 2048 B of
// one image's patches; the output is bit-identical and the forecast exact.
// Loops were never recomputed before: the smallest peak was the baseline.
// CHECK: baseline: {{.*}} peak_bytes=18944
// CHECK: remat: budget=min {{.*}} peak_bytes=16896 {{.*}} recompute_count=1
// CHECK: estimate_error=0.00% outputs_identical=yes within_budget=yes
// REPORT: "recomputed": [
// REPORT-NEXT: {
// REPORT-NEXT: "value": "scf.for"

func.func @step(%x: tensor<2x8x8x8xf32>, %w: tensor<8x8x1x1xf32>, %v: tensor<8x8x1x1xf32>) -> tensor<2x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x8x8x8xf32>, tensor<8x8x1x1xf32>) outs(%z : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %t = linalg.abs ins(%a : tensor<2x8x8x8xf32>) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%t, %v : tensor<2x8x8x8xf32>, tensor<8x8x1x1xf32>) outs(%z : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %u = linalg.abs ins(%b : tensor<2x8x8x8xf32>) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%u, %v : tensor<2x8x8x8xf32>, tensor<8x8x1x1xf32>) outs(%z : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %r = linalg.add ins(%c, %a : tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) outs(%e : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  return %r : tensor<2x8x8x8xf32>
}
