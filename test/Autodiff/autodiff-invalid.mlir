// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-autodiff

// Tests that an op without a rule is named.
func.func @gather(%table: tensor<8x4xf32>, %ids: tensor<3x1xindex>) -> tensor<f32> attributes {ckpt.differentiate} {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'tensor.gather' op is not supported by ckpt-autodiff}}
  %g = tensor.gather %table[%ids] gather_dims([0]) : (tensor<8x4xf32>, tensor<3x1xindex>) -> tensor<3x1x4xf32>
  %e = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%g : tensor<3x1x4xf32>) outs(%s0 : tensor<f32>) dimensions = [0, 1, 2]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}

// -----

// Tests that a scalar op without a derivative rule is named.
func.func @powf(%a: tensor<4xf32>) -> tensor<f32> attributes {ckpt.differentiate} {
  %two = arith.constant dense<2.5> : tensor<4xf32>
  // expected-error @+1 {{'math.powf' op has no derivative rule in ckpt-autodiff}}
  %p = math.powf %a, %two : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%p : tensor<4xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}

// -----

// Tests that the loss must be a scalar.
// expected-error @+1 {{'func.func' op returns 'tensor<4xf32>'; the loss must be a float scalar or a 0-d float tensor}}
func.func @vector_loss(%a: tensor<4xf32>) -> tensor<4xf32> attributes {ckpt.differentiate} {
  return %a : tensor<4xf32>
}

// -----

// Tests that exactly one result is required.
// expected-error @+1 {{'func.func' op must return exactly one value, the scalar loss, to be differentiated}}
func.func @two_results(%a: f32) -> (f32, f32) attributes {ckpt.differentiate} {
  return %a, %a : f32, f32
}

// -----

// Tests that an input read through a map that is neither a projected
// permutation nor a window (nearest upsampling, read at o floordiv 2) is
// reported rather than differentiated wrongly. (Strided and dilated windows
// are differentiated: gradcheck-strided-dilated.mlir.)
#up = affine_map<(d0) -> (d0 floordiv 2)>
#id = affine_map<(d0) -> (d0)>
func.func @upsample(%in: tensor<4xf32>) -> tensor<f32> attributes {ckpt.differentiate} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{reads operand #0 through a map that is neither a projected permutation nor a strided, dilated window (s * o + d * w); ckpt-autodiff cannot differentiate it}}
  %u = linalg.generic {indexing_maps = [#up, #id], iterator_types = ["parallel"]}
      ins(%in : tensor<4xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  %se = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%z : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%u : tensor<8xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}

// -----

// Tests that an existing symbol with the gradient's name is not overwritten.
// expected-error @+1 {{'func.func' op cannot be differentiated into 'clash_grad': a symbol with that name exists}}
func.func @clash(%a: f32) -> f32 attributes {ckpt.differentiate} {
  return %a : f32
}
func.func @clash_grad(%a: f32) -> f32 {
  return %a : f32
}

// -----

// Tests that ckpt.differentiate is a unit attribute on functions.
func.func @bad_attr(%a: f32) -> f32 {
  // expected-error @+1 {{'ckpt.differentiate' is only valid on functions}}
  %b = arith.addf %a, %a {ckpt.differentiate} : f32
  return %b : f32
}

// -----

// Tests that padding with a value computed from an argument is reported (its
// gradient, the sum of the result's adjoint over the border, is not
// implemented) rather than given no gradient.
func.func @computed_padding(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<f32> attributes {ckpt.differentiate} {
  %z = arith.constant 0.0 : f32
  %pv = tensor.extract %v[] : tensor<f32>
  // expected-error @+1 {{'tensor.pad' op pads with a computed value; ckpt-autodiff supports constant padding}}
  %p = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %pv : f32
  } : tensor<4xf32> to tensor<6xf32>
  %se = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%z : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%p : tensor<6xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}

// -----

// Tests that a loop is reported at the loop.
func.func @looped(%x: tensor<4xf32>) -> tensor<f32> attributes {ckpt.differentiate} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'scf.for' op is not supported by ckpt-autodiff}}
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %e = math.exp %acc : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  %se = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%z : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%y : tensor<4xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}

// -----

// Tests that a loss reading the log-sum-exp of ckpt.attention is refused at
// the op (its gradient rule covers the output only).
func.func @attention_lse(%q: tensor<8x4xf32>) -> tensor<f32> attributes {ckpt.differentiate} {
  %z = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<8x4xf32>
  %el = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'ckpt.attention' op has its log-sum-exp used by the loss; ckpt-autodiff differentiates only its output}}
  %o, %lse = ckpt.attention scale(0.5) ins(%q, %q, %q : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) outs(%eo, %el : tensor<8x4xf32>, tensor<8xf32>) -> tensor<8x4xf32>, tensor<8xf32>
  %se = tensor.empty() : tensor<f32>
  %s0 = linalg.fill ins(%z : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%lse : tensor<8xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}
