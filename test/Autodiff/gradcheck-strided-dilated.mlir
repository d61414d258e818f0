// Gradient check by execution (f64, central differences with h = 1e-6,
// relative error <= 1e-6 at the first, middle and last element of every
// argument; see gradcheck.py): linalg.conv_2d_nhwc_hwcf with stride 2 (a
// 7x7 input whose last row and column no window reads), with dilation 2,
// and a 2x2 max pooling with stride 2 after the dilated convolution (whose
// last row and column the pooling never reads).
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

// The input's adjoint reads the output adjoint laid out on the input's grid
// (every other element for stride 2) through tensor.insert_slice.
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @loss_grad
// IR: tensor.insert_slice {{.*}}[0, 2, 2, 0] [1, 3, 3, 3] [1, 2, 2, 1] {{.*}}: tensor<1x3x3x3xf64> into tensor<1x9x9x3xf64>

#nhwc = affine_map<(a, b, c, d) -> (a, b, c, d)>
#scalar = affine_map<(a, b, c, d) -> ()>
func.func @loss(%in: tensor<1x7x7x2xf64>, %f: tensor<3x3x2x3xf64>, %g: tensor<2x2x2x3xf64>) -> tensor<f64> {
  %z = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<1x3x3x3xf64>
  %o1 = linalg.fill ins(%z : f64) outs(%e1 : tensor<1x3x3x3xf64>) -> tensor<1x3x3x3xf64>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x7x7x2xf64>, tensor<3x3x2x3xf64>) outs(%o1 : tensor<1x3x3x3xf64>) -> tensor<1x3x3x3xf64>
  %t1 = math.tanh %c1 : tensor<1x3x3x3xf64>
  %e2 = tensor.empty() : tensor<1x5x5x3xf64>
  %o2 = linalg.fill ins(%z : f64) outs(%e2 : tensor<1x5x5x3xf64>) -> tensor<1x5x5x3xf64>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %g : tensor<1x7x7x2xf64>, tensor<2x2x2x3xf64>) outs(%o2 : tensor<1x5x5x3xf64>) -> tensor<1x5x5x3xf64>
  %th = math.tanh %c2 : tensor<1x5x5x3xf64>
  // A ramp keeps every pooling window free of ties (where the max has no
  // derivative and finite differences would see half of one).
  %re = tensor.empty() : tensor<1x5x5x3xf64>
  %t2 = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%th : tensor<1x5x5x3xf64>) outs(%re : tensor<1x5x5x3xf64>) {
  ^bb0(%x: f64, %unused: f64):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %k = linalg.index 3 : index
    %c15 = arith.constant 15 : index
    %c3 = arith.constant 3 : index
    %ii = arith.muli %i, %c15 : index
    %jj = arith.muli %j, %c3 : index
    %s1 = arith.addi %ii, %jj : index
    %s2 = arith.addi %s1, %k : index
    %si = arith.index_cast %s2 : index to i64
    %sf = arith.sitofp %si : i64 to f64
    %scale = arith.constant 0.013 : f64
    %ramp = arith.mulf %sf, %scale : f64
    %y = arith.addf %x, %ramp : f64
    linalg.yield %y : f64
  } -> tensor<1x5x5x3xf64>
  %ninf = arith.constant -1.0e30 : f64
  %pe = tensor.empty() : tensor<1x2x2x3xf64>
  %p0 = linalg.fill ins(%ninf : f64) outs(%pe : tensor<1x2x2x3xf64>) -> tensor<1x2x2x3xf64>
  %window = tensor.empty() : tensor<2x2xf64>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%t2, %window : tensor<1x5x5x3xf64>, tensor<2x2xf64>) outs(%p0 : tensor<1x2x2x3xf64>) -> tensor<1x2x2x3xf64>
  %se = tensor.empty() : tensor<f64>
  %s0 = linalg.fill ins(%z : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %s1 = linalg.generic {indexing_maps = [#nhwc, #scalar], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%t1 : tensor<1x3x3x3xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %q = arith.mulf %v, %v : f64
    %r = arith.addf %acc, %q : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#nhwc, #scalar], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%p : tensor<1x2x2x3xf64>) outs(%s1 : tensor<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %q = arith.mulf %v, %v : f64
    %r = arith.addf %acc, %q : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
