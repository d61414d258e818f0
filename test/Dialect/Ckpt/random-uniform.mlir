// Tests ckpt.random_uniform: its lowering (ten Philox rounds of integer
// arithmetic in a linalg.generic) and, by execution, bit-exact agreement with
// a Python reference checked against the Random123 known-answer vectors, for
// f32 and f64, for two offsets and for two evaluations of the same draw.
// RUN: ckpt-opt %s --ckpt-lower-random | FileCheck %s --check-prefix=LOWERED
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu > %t.out
// RUN: sed -n "/f32 draw/,/]]/p" %t.out | python3 %S/philox-reference.py --seed 0x0123456789abcdef --offset 1000 --shape 3x5 --dtype f32 | FileCheck %s --check-prefix=F32
// RUN: sed -n "/f32 again/,/]]/p" %t.out | python3 %S/philox-reference.py --seed 0x0123456789abcdef --offset 1000 --shape 3x5 --dtype f32 | FileCheck %s --check-prefix=F32
// RUN: sed -n "/f32 next/,/]]/p" %t.out | python3 %S/philox-reference.py --seed 0x0123456789abcdef --offset 1015 --shape 3x5 --dtype f32 | FileCheck %s --check-prefix=NEXT
// RUN: sed -n "/f64 draw/,/]]/p" %t.out | python3 %S/philox-reference.py --seed 0x0123456789abcdef --offset 7 --shape 2x3 --dtype f64 | FileCheck %s --check-prefix=F64

// LOWERED-LABEL: func.func @draw_f32
// LOWERED-NOT:   ckpt.random_uniform
// LOWERED:       linalg.generic
// LOWERED-COUNT-20: arith.mului_extended
// LOWERED:       arith.uitofp
// F32: offset 1000: 15 elements match the reference
// NEXT: offset 1015: 15 elements match the reference
// F64: offset 7: 6 elements match the reference

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)

func.func @draw_f32(%seed: i64, %offset: i64) -> tensor<3x5xf32> {
  %u = ckpt.random_uniform %seed, %offset : tensor<3x5xf32>
  return %u : tensor<3x5xf32>
}

func.func @draw_f64(%seed: i64, %offset: i64) -> tensor<2x3xf64> {
  %u = ckpt.random_uniform %seed, %offset : tensor<2x3xf64>
  return %u : tensor<2x3xf64>
}

func.func @print_f32(%u: tensor<3x5xf32>) {
  %bits = arith.bitcast %u : tensor<3x5xf32> to tensor<3x5xi32>
  %cast = tensor.cast %bits : tensor<3x5xi32> to tensor<*xi32>
  call @printMemrefI32(%cast) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %seed = arith.constant 81985529216486895 : i64
  %o1 = arith.constant 1000 : i64
  %o2 = arith.constant 1015 : i64
  %o3 = arith.constant 7 : i64
  vector.print str "f32 draw\n"
  %a = call @draw_f32(%seed, %o1) : (i64, i64) -> tensor<3x5xf32>
  call @print_f32(%a) : (tensor<3x5xf32>) -> ()
  vector.print str "f32 again\n"
  %b = call @draw_f32(%seed, %o1) : (i64, i64) -> tensor<3x5xf32>
  call @print_f32(%b) : (tensor<3x5xf32>) -> ()
  vector.print str "f32 next\n"
  %c = call @draw_f32(%seed, %o2) : (i64, i64) -> tensor<3x5xf32>
  call @print_f32(%c) : (tensor<3x5xf32>) -> ()
  vector.print str "f64 draw\n"
  %d = call @draw_f64(%seed, %o3) : (i64, i64) -> tensor<2x3xf64>
  %dbits = arith.bitcast %d : tensor<2x3xf64> to tensor<2x3xi64>
  %dcast = tensor.cast %dbits : tensor<2x3xi64> to tensor<*xi64>
  call @printMemrefI64(%dcast) : (tensor<*xi64>) -> ()
  return
}
