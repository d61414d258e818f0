// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Tests that region arguments must match the inputs in number.
func.func @arg_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op has 1 inputs but its region has 2 arguments}}
  %r = "ckpt.recompute"(%a) ({
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    ckpt.yield %x : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that region argument types must match the input types.
func.func @arg_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op input #0 has type 'tensor<4xf32>' but the region argument has type 'tensor<4xf16>'}}
  %r = "ckpt.recompute"(%a) ({
  ^bb0(%x: tensor<4xf16>):
    %e = arith.extf %x : tensor<4xf16> to tensor<4xf32>
    ckpt.yield %e : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that the yielded types must match the result types.
func.func @yield_type(%a: tensor<4xf32>) -> tensor<8xf32> {
  %r = ckpt.recompute(%x = %a : tensor<4xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{'ckpt.yield' op value #0 has type 'tensor<4xf32>' but the parent's result has type 'tensor<8xf32>'}}
    ckpt.yield %x : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Tests that the number of yielded values must match the results.
func.func @yield_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = ckpt.recompute(%x = %a : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'ckpt.yield' op yields 2 values but the parent has 1 results}}
    ckpt.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that a recompute region must produce something.
func.func @no_results(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ckpt.recompute' op must recompute at least one value}}
  ckpt.recompute(%x = %a : tensor<4xf32>) {
    ckpt.yield
  }
  return
}

// -----

// Tests that a side-effecting op cannot be recomputed.
func.func @side_effect(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{enclosing region}}
  %r = ckpt.recompute(%x = %a : tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %m = memref.alloc() : memref<4xf32>
    %f = arith.constant 1.0 : f32
    // expected-error @+1 {{'memref.store' op has a memory effect other than allocation and cannot be recomputed inside 'ckpt.recompute'}}
    memref.store %f, %m[%c0] : memref<4xf32>
    ckpt.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that an op with unknown memory effects cannot be recomputed.
func.func @unknown_effects(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{enclosing region}}
  %r = ckpt.recompute(%x = %a : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'foreign.op' op has unknown memory effects and cannot be recomputed inside 'ckpt.recompute'}}
    %y = "foreign.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    ckpt.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that a recompute region on buffers must not write into its inputs.
func.func @writes_input(%a: memref<4xf32>) -> memref<4xf32> {
  // expected-note @+1 {{enclosing region}}
  %r = ckpt.recompute(%x = %a : memref<4xf32>) -> memref<4xf32> {
    %b = memref.alloc() : memref<4xf32>
    // expected-error @+1 {{'linalg.exp' op writes into region input #0 of 'ckpt.recompute'; recomputation must leave the values it starts from unchanged}}
    linalg.exp ins(%b : memref<4xf32>) outs(%x : memref<4xf32>)
    ckpt.yield %b : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// -----

// Tests that a donated input's buffer may be written by the region, and only
// that one.
func.func @writes_undonated_input(%a: memref<4xf32>, %c: memref<4xf32>) -> memref<4xf32> {
  // expected-note @+1 {{enclosing region}}
  %r = ckpt.recompute(%x = %a : memref<4xf32>, %y = %c : memref<4xf32>) -> memref<4xf32> {
    linalg.exp ins(%y : memref<4xf32>) outs(%x : memref<4xf32>)
    // expected-error @+1 {{'linalg.exp' op writes into region input #1 of 'ckpt.recompute'}}
    linalg.exp ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
    ckpt.yield %x : memref<4xf32>
  } attributes {donated = array<i64: 0>}
  return %r : memref<4xf32>
}

// -----

// Tests that donated inputs are increasing positions of the inputs.
func.func @donated_out_of_range(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op donated inputs must be increasing positions in [0, 1), got 1}}
  %r = ckpt.recompute(%x = %a : tensor<4xf32>) -> tensor<4xf32> {
    ckpt.yield %x : tensor<4xf32>
  } attributes {donated = array<i64: 1>}
  return %r : tensor<4xf32>
}

// -----

func.func @donated_twice(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op donated inputs must be increasing positions in [0, 2), got 0}}
  %r = ckpt.recompute(%x = %a : tensor<4xf32>, %y = %b : tensor<4xf32>) -> tensor<4xf32> {
    ckpt.yield %x : tensor<4xf32>
  } attributes {donated = array<i64: 0, 0>}
  return %r : tensor<4xf32>
}

// -----

// Tests that only an input with a buffer can be donated.
func.func @donated_scalar(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op donates input #1 of type 'f32', which has no buffer}}
  %r = ckpt.recompute(%x = %a : tensor<4xf32>, %y = %s : f32) -> tensor<4xf32> {
    ckpt.yield %x : tensor<4xf32>
  } attributes {donated = array<i64: 1>}
  return %r : tensor<4xf32>
}

// -----

// Tests that a region may not mix tensors and buffers.
func.func @mixed(%a: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op mixes tensor and memref inputs/results}}
  %r = ckpt.recompute(%x = %a : tensor<4xf32>, %y = %m : memref<4xf32>) -> tensor<4xf32> {
    ckpt.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that the region must end in ckpt.yield.
func.func @wrong_terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.recompute' op region must end with 'ckpt.yield'}}
  %r = "ckpt.recompute"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    "test.terminator"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that a checkpoint region works on tensors only.
func.func @checkpoint_memref(%a: memref<4xf32>) -> memref<4xf32> {
  // expected-error @+1 {{'ckpt.checkpoint' op works on tensors only; expand it with ckpt-remat before bufferization}}
  %r = ckpt.checkpoint(%x = %a : memref<4xf32>) -> memref<4xf32> {
    ckpt.yield %x : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// -----

// Tests that a side-effecting op inside a checkpoint region is rejected.
func.func @checkpoint_effect(%a: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{enclosing region}}
  %r = ckpt.checkpoint(%x = %a : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'bufferization.alloc_tensor' op}}
    %t = bufferization.alloc_tensor() : tensor<4xf32>
    ckpt.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that ckpt.yield only terminates ckpt regions.
func.func @stray_yield(%a: tensor<4xf32>) {
  // expected-error @+1 {{'ckpt.yield' op expects parent op to be one of 'ckpt.recompute, ckpt.checkpoint'}}
  ckpt.yield %a : tensor<4xf32>
}

// -----

// Tests that ckpt.policy must be a policy attribute.
func.func @bad_policy(%a: f32) -> f32 {
  // expected-error @+1 {{'ckpt.policy' must be a #ckpt.policy<must_save|prefer_save|prefer_recompute|must_recompute> attribute}}
  %0 = arith.addf %a, %a {ckpt.policy = "must_save"} : f32
  return %0 : f32
}

// -----

// Tests that an unknown policy keyword is rejected by the parser.
func.func @unknown_policy(%a: f32) -> f32 {
  // expected-error @+2 {{expected ::mlir::ckpt::Policy to be one of: must_save, prefer_save, prefer_recompute, must_recompute}}
  // expected-error @+1 {{failed to parse Ckpt_PolicyAttr parameter 'value'}}
  %0 = arith.addf %a, %a {ckpt.policy = #ckpt.policy<sometimes>} : f32
  return %0 : f32
}

// -----

// Tests that ckpt.phase must be a phase attribute.
func.func @bad_phase(%a: f32) -> f32 {
  // expected-error @+1 {{'ckpt.phase' must be a #ckpt.phase<forward|backward> attribute}}
  %0 = arith.addf %a, %a {ckpt.phase = 1 : i32} : f32
  return %0 : f32
}

// -----

// Tests that ckpt.name must be a non-empty string.
func.func @bad_name(%a: f32) -> f32 {
  // expected-error @+1 {{'ckpt.name' must be a non-empty string}}
  %0 = arith.addf %a, %a {ckpt.name = ""} : f32
  return %0 : f32
}

// -----

// Tests that unknown ckpt attributes are rejected.
func.func @unknown_attr(%a: f32) -> f32 {
  // expected-error @+1 {{unknown ckpt attribute 'ckpt.keep'}}
  %0 = arith.addf %a, %a {ckpt.keep} : f32
  return %0 : f32
}

// -----

// Tests that ckpt.tangent belongs on a floating-point function argument.
// expected-error @+1 {{'ckpt.tangent' on argument #0 requires a floating-point argument (a cotangent), got 'tensor<4xi32>'}}
func.func @tangent_int(%g: tensor<4xi32> {ckpt.tangent}) {
  return
}

// -----

// Tests that ckpt.results_preallocated is a unit attribute on a function.
// expected-error @+1 {{'ckpt.results_preallocated' must be a unit attribute}}
func.func @preallocated_value(%x: tensor<4xf32>) -> tensor<4xf32> attributes {ckpt.results_preallocated = 1 : i64} {
  return %x : tensor<4xf32>
}

// -----

// Tests that ckpt.results_preallocated is only valid on functions.
func.func @preallocated_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.results_preallocated' is only valid on functions}}
  %y = math.exp %x {ckpt.results_preallocated} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Tests that ckpt.tangent is a unit attribute.
// expected-error @+1 {{'ckpt.tangent' on argument #0 must be a unit attribute}}
func.func @tangent_value(%g: tensor<4xf32> {ckpt.tangent = 1 : i32}) {
  return
}

// -----

// Tests that ckpt.tangent is not an operation attribute.
func.func @tangent_on_op(%a: f32) -> f32 {
  // expected-error @+1 {{'ckpt.tangent' is a function argument attribute, not an operation attribute}}
  %0 = arith.addf %a, %a {ckpt.tangent} : f32
  return %0 : f32
}

// -----

// Tests that random numbers need a static shape.
func.func @random_dynamic(%s: i64, %o: i64) -> tensor<?xf32> {
  // expected-error @+1 {{'ckpt.random_uniform' op needs a statically shaped result, got 'tensor<?xf32>'}}
  %u = ckpt.random_uniform %s, %o : tensor<?xf32>
  return %u : tensor<?xf32>
}

// -----

// Tests that random numbers are f32 or f64.
func.func @random_int(%s: i64, %o: i64) -> tensor<4xi32> {
  // expected-error @+1 {{'ckpt.random_uniform' op result #0 must be ranked tensor of 32-bit float or 64-bit float values}}
  %u = ckpt.random_uniform %s, %o : tensor<4xi32>
  return %u : tensor<4xi32>
}

// -----

// Tests that ckpt.noalias_pointers holds an array of i64.
// expected-error @+1 {{'ckpt.noalias_pointers' must be an array<i64: ...> attribute}}
func.func @noalias_not_array(%x: memref<4xf32>) attributes {ckpt.noalias_pointers = 0 : i64} {
  return
}

// -----

// Tests that ckpt.noalias_pointers is only valid on functions.
func.func @noalias_on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ckpt.noalias_pointers' is only valid on functions}}
  %y = math.exp %x {ckpt.noalias_pointers = array<i64: 0>} : tensor<4xf32>
  return %y : tensor<4xf32>
}
