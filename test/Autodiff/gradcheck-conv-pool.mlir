// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): linalg.conv_2d_nhwc_hwcf (input and filter)
// followed by a 2x2 max pooling with unit stride (a small ramp added before
// the pooling keeps every window free of ties, where the max has no
// derivative and finite differences would see half of one).
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

func.func @loss(%in: tensor<1x6x6x2xf64>, %f: tensor<3x3x2x3xf64>) -> tensor<f64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x4x4x3xf64>
  %o = linalg.fill ins(%z : f64) outs(%e : tensor<1x4x4x3xf64>) -> tensor<1x4x4x3xf64>
  %c = linalg.conv_2d_nhwc_hwcf ins(%in, %f : tensor<1x6x6x2xf64>, tensor<3x3x2x3xf64>) outs(%o : tensor<1x4x4x3xf64>) -> tensor<1x4x4x3xf64>
  %th = math.tanh %c : tensor<1x4x4x3xf64>
  %re = tensor.empty() : tensor<1x4x4x3xf64>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%th : tensor<1x4x4x3xf64>) outs(%re : tensor<1x4x4x3xf64>) {
  ^bb0(%x: f64, %unused: f64):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %k = linalg.index 3 : index
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %ij = arith.muli %i, %c16 : index
    %jj = arith.muli %j, %c4 : index
    %s1 = arith.addi %ij, %jj : index
    %s2 = arith.addi %s1, %k : index
    %si = arith.index_cast %s2 : index to i64
    %sf = arith.sitofp %si : i64 to f64
    %scale = arith.constant 0.013 : f64
    %ramp = arith.mulf %sf, %scale : f64
    %y = arith.addf %x, %ramp : f64
    linalg.yield %y : f64
  } -> tensor<1x4x4x3xf64>
  %ninf = arith.constant -1.0e30 : f64
  %pe = tensor.empty() : tensor<1x3x3x3xf64>
  %p0 = linalg.fill ins(%ninf : f64) outs(%pe : tensor<1x3x3x3xf64>) -> tensor<1x3x3x3xf64>
  %window = tensor.empty() : tensor<2x2xf64>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%t, %window : tensor<1x4x4x3xf64>, tensor<2x2xf64>) outs(%p0 : tensor<1x3x3x3xf64>) -> tensor<1x3x3x3xf64>
  %se = tensor.empty() : tensor<f64>
  %s0 = linalg.fill ins(%z : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>],
                          iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%p : tensor<1x3x3x3xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %q = arith.mulf %v, %v : f64
    %r = arith.addf %acc, %q : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
