// RUN: ckpt-opt %s --split-input-file --ckpt-legalize-narrow-float-casts | FileCheck %s

// Tests that a truncation to bf16 becomes integer rounding on the bits and
// an extension from bf16 a shift, with no float cast left.
// CHECK-LABEL: func.func @round_trip
// CHECK-NOT:     arith.truncf
// CHECK-NOT:     arith.extf
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK:         arith.shrui
// CHECK:         arith.bitcast %{{.*}} : i16 to bf16
// CHECK:         arith.bitcast %{{.*}} : bf16 to i16
// CHECK:         arith.shli
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
// CHECK-NOT:     arith.truncf
// CHECK-NOT:     arith.extf
func.func @round_trip(%x: f32) -> f32 {
  %h = arith.truncf %x : f32 to bf16
  %y = arith.extf %h : bf16 to f32
  return %y : f32
}

// -----

// Tests that f16 casts and f32 arithmetic (arith-expand would rewrite
// maximumf) are left as they are, less the casts' fastmath flags, and that
// a rounding and the extension after it are not folded into nothing.
// CHECK-LABEL: func.func @others
// CHECK:         arith.truncf %arg0 : f32 to f16
// CHECK-NEXT:    arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    arith.maximumf %{{.*}} : f32
func.func @others(%x: f32) -> f32 {
  %h = arith.truncf %x fastmath<contract> : f32 to f16
  %y = arith.extf %h fastmath<contract> : f16 to f32
  %m = arith.maximumf %x, %y : f32
  return %m : f32
}
