// Tests ckpt-approximate-math: f32 exp, log, log1p, expm1, tanh and erf
// (scalars and vectors) become polynomials in arith and math.fma; f64 ops
// and other functions (sqrt, sin) stay.
// RUN: ckpt-opt %s --ckpt-approximate-math | FileCheck %s

// CHECK-LABEL: func.func @f32_scalars(
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.log
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.erf
// CHECK:         math.fma
// CHECK:         return
func.func @f32_scalars(%x: f32) -> (f32, f32, f32, f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.log %x : f32
  %2 = math.log1p %x : f32
  %3 = math.expm1 %x : f32
  %4 = math.tanh %x : f32
  %5 = math.erf %x : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @f32_vector(
// CHECK-NOT:     math.exp
// CHECK:         math.fma {{.*}} : vector<8xf32>
func.func @f32_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// CHECK-LABEL: func.func @kept(
// CHECK:         math.exp %{{.*}} : f64
// CHECK:         math.erf %{{.*}} : f64
// CHECK:         math.sqrt %{{.*}} : f32
// CHECK:         math.sin %{{.*}} : f32
func.func @kept(%x: f64, %y: f32) -> (f64, f64, f32, f32) {
  %0 = math.exp %x : f64
  %1 = math.erf %x : f64
  %2 = math.sqrt %y : f32
  %3 = math.sin %y : f32
  return %0, %1, %2, %3 : f64, f64, f32, f32
}
