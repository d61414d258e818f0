// Gradient check by execution through float casts (central differences with
// h = 1e-2, relative error <= 1e-3: the f32 part rounds at about 1e-7, which
// a smaller step would amplify): the arguments are rounded to f32
// (arith.truncf), multiplied and squashed in f32, extended back to f64
// (arith.extf) and used again in f64. The adjoint of a cast is the
// adjoint cast back (it used to be added to the operand's adjoint in the
// wrong type: invalid IR).
// RUN: ckpt-opt %s --ckpt-autodiff=function=loss | %gradcheck - --step 1e-2 --tolerance 1e-3 | ckpt-opt --ckpt-cpu-pipeline | %run_cpu | FileCheck %s
// CHECK: max_rel_error
// CHECK: gradcheck: ok

#id2 = affine_map<(i, j) -> (i, j)>
#sum2 = affine_map<(i, j) -> ()>

func.func @loss(%a: tensor<4x6xf64>, %b: tensor<4x6xf64>) -> tensor<f64> {
  %a32 = arith.truncf %a : tensor<4x6xf64> to tensor<4x6xf32>
  %b32 = arith.truncf %b : tensor<4x6xf64> to tensor<4x6xf32>
  %p = arith.mulf %a32, %b32 : tensor<4x6xf32>
  %t = math.tanh %p : tensor<4x6xf32>
  %w = arith.extf %t : tensor<4x6xf32> to tensor<4x6xf64>
  %r = arith.mulf %w, %a : tensor<4x6xf64>
  %se = tensor.empty() : tensor<f64>
  %zero = arith.constant 0.0 : f64
  %s0 = linalg.fill ins(%zero : f64) outs(%se : tensor<f64>) -> tensor<f64>
  %loss = linalg.generic {indexing_maps = [#id2, #sum2], iterator_types = ["reduction", "reduction"]}
      ins(%r : tensor<4x6xf64>) outs(%s0 : tensor<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %q = arith.mulf %v, %v : f64
    %s = arith.addf %acc, %q : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %loss : tensor<f64>
}
