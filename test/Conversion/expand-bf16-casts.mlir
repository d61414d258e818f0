// RUN: ckpt-opt %s --split-input-file --ckpt-expand-bf16-casts | FileCheck %s

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
// maximumf) are left as they are.
// CHECK-LABEL: func.func @others
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.maximumf %{{.*}} : f32
func.func @others(%x: f32) -> f32 {
  %h = arith.truncf %x : f32 to f16
  %y = arith.extf %h : f16 to f32
  %m = arith.maximumf %x, %y : f32
  return %m : f32
}
