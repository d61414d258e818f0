// Tests that the CPU pipeline runs bf16 and f16 programs (no libgcc bf16
// helper needed) with reductions accumulated in f32: 1024 ones summed in
// bf16 give 1024 (256 when every partial sum is rounded to bf16), 4096 ones
// in f16 give 4096 (2048 in f16); bf16 math is computed in f32 and rounded
// once (tanh(1) * 1 = 0.76171875 in bf16, 8 of them); the ahead-of-time
// library gives the same bits.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ckpt-run %s --entry=sums --iterations=1 | FileCheck %s
// CHECK: output #0 tensor<2xf32> {{.*}} sum=2.048000e+03
// CHECK: output #1 tensor<2xf32> {{.*}} sum=8.192000e+03
// CHECK: output #2 tensor<2x4xf32> {{.*}} sum=6.093750e+00
// RUN: ckpt-run %s --entry=sums --iterations=1 --num-threads=2 | FileCheck %s
//
// The lowering leaves LLVM no bf16 arithmetic and no bf16 cast (bf16 is
// only loaded, stored and bitcast to i16).
// RUN: ckpt-opt %s --ckpt-cpu-pipeline | FileCheck %s --check-prefix=LOWERED
// LOWERED-NOT: {{llvm\.(fptrunc|fpext|fadd|fsub|fmul|fdiv|intr\.[a-z]+) .*bf16}}
// LOWERED:     llvm.bitcast {{.*}} : bf16 to i16
// LOWERED-NOT: {{llvm\.(fptrunc|fpext|fadd|fsub|fmul|fdiv|intr\.[a-z]+) .*bf16}}

func.func @sums() -> (tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>) {
  %x = arith.constant dense<1.0> : tensor<2x1024xbf16>
  %h = arith.constant dense<1.0> : tensor<2x4096xf16>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<2xbf16>
  %fill = linalg.fill ins(%zero : bf16) outs(%e : tensor<2xbf16>) -> tensor<2xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x1024xbf16>) outs(%fill : tensor<2xbf16>) {
    ^bb0(%in: bf16, %acc: bf16):
      %0 = arith.addf %acc, %in : bf16
      linalg.yield %0 : bf16
  } -> tensor<2xbf16>
  %ef = tensor.empty() : tensor<2xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<2xbf16>) outs(%ef : tensor<2xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %0 = arith.extf %in : bf16 to f32
      linalg.yield %0 : f32
  } -> tensor<2xf32>
  %zh = arith.constant 0.0 : f16
  %eh = tensor.empty() : tensor<2xf16>
  %fh = linalg.fill ins(%zh : f16) outs(%eh : tensor<2xf16>) -> tensor<2xf16>
  %sh = linalg.reduce ins(%h : tensor<2x4096xf16>) outs(%fh : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %0 = arith.addf %acc, %in : f16
      linalg.yield %0 : f16
    }
  %ef2 = tensor.empty() : tensor<2xf32>
  %wh = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sh : tensor<2xf16>) outs(%ef2 : tensor<2xf32>) {
    ^bb0(%in: f16, %out: f32):
      %0 = arith.extf %in : f16 to f32
      linalg.yield %0 : f32
  } -> tensor<2xf32>
  %slice = tensor.extract_slice %x[0, 0] [2, 4] [1, 1] : tensor<2x1024xbf16> to tensor<2x4xbf16>
  %e4 = tensor.empty() : tensor<2x4xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%slice : tensor<2x4xbf16>) outs(%e4 : tensor<2x4xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = math.tanh %in : bf16
      %1 = arith.mulf %0, %in : bf16
      linalg.yield %1 : bf16
  } -> tensor<2x4xbf16>
  %e5 = tensor.empty() : tensor<2x4xf32>
  %tf = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<2x4xbf16>) outs(%e5 : tensor<2x4xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %0 = arith.extf %in : bf16 to f32
      linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  return %w, %wh, %tf : tensor<2xf32>, tensor<2xf32>, tensor<2x4xf32>
}
