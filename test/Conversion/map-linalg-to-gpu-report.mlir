// RUN: ckpt-opt %s --pass-pipeline="builtin.module(ckpt-map-linalg-to-gpu{report=%t.json})" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-map-linalg-to-gpu{report=%t.json report-target=tpu-v9})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ckpt-opt %s --pass-pipeline="builtin.module(ckpt-map-linalg-to-gpu{report=%t.json resident-threads=0})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS

// Tests the kernel report: an elementwise op on 1M elements fills the GPU
// (270,336 resident threads) with coalesced accesses: efficiency 1. A row
// sum of 64 rows is a block reduction with 64 blocks of 256 threads: 16,384
// threads, efficiency 16384/270336 = 0.0606. A contraction over 16 elements
// along A's innermost dimension (too short for a block) is a thread per
// output: 1M threads, but each thread walks its own row of A, one f32 per
// 32-byte sector, and the op is memory-bound: efficiency 4/32 = 0.125.

// CHECK:      "kernels": [
// CHECK:          "access_fraction": 1,
// CHECK-NEXT:     "blocks": 4096,
// CHECK-NEXT:     "bytes": 12582912,
// CHECK-NEXT:     "efficiency": 1,
// CHECK:          "mapping": "elementwise",
// CHECK:          "parallel_fraction": 1,
// CHECK-NEXT:     "roofline_s":
// CHECK-NEXT:     "threads_per_block": 256
// CHECK:          "access_fraction": 1,
// CHECK-NEXT:     "blocks": 64,
// CHECK:          "efficiency": 0.0606{{[0-9]*}},
// CHECK:          "mapping": "block-reduction",
// CHECK:          "access_fraction": 0.125,
// CHECK-NEXT:     "blocks": 4096,
// CHECK:          "efficiency": 0.125,
// CHECK:          "mapping": "thread-per-output",
// CHECK:          "parallel_fraction": 1,
// CHECK:      "resident_threads": 270336,
// CHECK:      "summary": {
// CHECK:        "kernel_count": 3,
// CHECK:      "target": "h100-sxm"

// TARGET: error: ckpt-map-linalg-to-gpu: report-target:
// THREADS: error: ckpt-map-linalg-to-gpu: resident-threads must be positive

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @kernels(%x: memref<1024x1024xf32>, %y: memref<1024x1024xf32>,
                   %z: memref<1024x1024xf32>, %r: memref<64x1024xf32>,
                   %s: memref<64xf32>, %a: memref<1024x16xf32>,
                   %b: memref<16x1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<1024x1024xf32>, memref<1024x1024xf32>)
      outs(%z : memref<1024x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %sum = arith.addf %p, %q : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [#id, #row],
                  iterator_types = ["parallel", "reduction"]}
      ins(%r : memref<64x1024xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%p: f32, %o: f32):
    %sum = arith.addf %o, %p : f32
    linalg.yield %sum : f32
  }
  linalg.generic {indexing_maps = [#a, #b, #c],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1024x16xf32>, memref<16x1024xf32>)
      outs(%z : memref<1024x1024xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %sum = arith.addf %o, %m : f32
    linalg.yield %sum : f32
  }
  return
}
