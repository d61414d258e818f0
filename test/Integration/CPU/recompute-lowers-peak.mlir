// RUN: ckpt-opt %s --ckpt-cpu-pipeline | %run_cpu | FileCheck %s

// Tests, by execution, that a recompute region lowers the measured peak and
// leaves the output bit-identical. Every tensor is 32x32xf32 = 4096 B.
//
// @keep holds %a (exp of the input) from the forward to its late use; at the
// widest point A, B, C and T are live: 4 x 4096 = 16384 B above the caller's
// buffers. @recompute lets %a die after its first use and rebuilds it from
// the argument right before the late use: at the widest point B, C and T are
// live, 12288 B. The saving is exactly one tensor.
//
// CHECK:      keep_peak_increment_bytes
// CHECK-NEXT: 16384
// CHECK:      recompute_peak_increment_bytes
// CHECK-NEXT: 12288
// CHECK:      mismatching_bit_patterns
// CHECK-NEXT: 0
// CHECK:      Unranked Memref
// CHECK-NEXT: {{\[}}[1.01575,   1.01575,   1.01575,   1.01575]]

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @ckpt_runtime_live_bytes() -> i64
func.func private @ckpt_runtime_peak_bytes() -> i64
func.func private @ckpt_runtime_reset()

#id = affine_map<(i, j) -> (i, j)>

func.func @keep(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.exp ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%b, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.add ins(%b, %c : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %d = linalg.matmul ins(%t, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.add ins(%d, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

func.func @recompute(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.exp ins(%x : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%b, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.add ins(%b, %c : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %d = linalg.matmul ins(%t, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %a2 = ckpt.recompute(%xx = %x : tensor<32x32xf32>) -> tensor<32x32xf32> {
    %e2 = tensor.empty() : tensor<32x32xf32>
    %v = linalg.exp ins(%xx : tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) -> tensor<32x32xf32>
    ckpt.yield %v : tensor<32x32xf32>
  }
  %r = linalg.add ins(%d, %a2 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

/// Number of elements whose bit patterns differ.
func.func @count_mismatches(%p: tensor<32x32xf32>, %q: tensor<32x32xf32>) -> i64 {
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %init = linalg.fill ins(%zero : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %n = linalg.generic {indexing_maps = [#id, #id, affine_map<(i, j) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%p, %q : tensor<32x32xf32>, tensor<32x32xf32>) outs(%init : tensor<i64>) {
  ^bb0(%a: f32, %b: f32, %acc: i64):
    %ia = arith.bitcast %a : f32 to i32
    %ib = arith.bitcast %b : f32 to i32
    %ne = arith.cmpi ne, %ia, %ib : i32
    %one = arith.extui %ne : i1 to i64
    %s = arith.addi %acc, %one : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %v = tensor.extract %n[] : tensor<i64>
  return %v : i64
}

func.func @peak_increment(%before: i64) -> i64 {
  %p = call @ckpt_runtime_peak_bytes() : () -> i64
  %d = arith.subi %p, %before : i64
  return %d : i64
}

func.func @main() {
  %cx = arith.constant 0.015625 : f32
  %cw = arith.constant -0.03125 : f32
  %e0 = tensor.empty() : tensor<32x32xf32>
  %x = linalg.fill ins(%cx : f32) outs(%e0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  %w = linalg.fill ins(%cw : f32) outs(%e1 : tensor<32x32xf32>) -> tensor<32x32xf32>

  %l0 = call @ckpt_runtime_live_bytes() : () -> i64
  call @ckpt_runtime_reset() : () -> ()
  %r0 = call @keep(%x, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %p0 = call @peak_increment(%l0) : (i64) -> i64

  %l1 = call @ckpt_runtime_live_bytes() : () -> i64
  call @ckpt_runtime_reset() : () -> ()
  %r1 = call @recompute(%x, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %p1 = call @peak_increment(%l1) : (i64) -> i64

  %bad = call @count_mismatches(%r0, %r1) : (tensor<32x32xf32>, tensor<32x32xf32>) -> i64

  vector.print str "keep_peak_increment_bytes\n"
  call @printI64(%p0) : (i64) -> ()
  call @printNewline() : () -> ()
  vector.print str "recompute_peak_increment_bytes\n"
  call @printI64(%p1) : (i64) -> ()
  call @printNewline() : () -> ()
  vector.print str "mismatching_bit_patterns\n"
  call @printI64(%bad) : (i64) -> ()
  call @printNewline() : () -> ()
  %s = tensor.extract_slice %r1[0, 0] [1, 4] [1, 1] : tensor<32x32xf32> to tensor<1x4xf32>
  %u = tensor.cast %s : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
