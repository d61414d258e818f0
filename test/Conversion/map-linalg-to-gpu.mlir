// RUN: ckpt-opt %s --split-input-file --ckpt-map-linalg-to-gpu | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-map-linalg-to-gpu=threads-per-block=128 | FileCheck %s --check-prefix=T128
// RUN: ckpt-opt %s --split-input-file --ckpt-map-linalg-to-gpu --convert-parallel-loops-to-gpu | FileCheck %s --check-prefix=LAUNCH

// Tests that an elementwise op gets one thread per element: 64x1024
// elements in blocks of 256 threads (128 with the option), the linear index
// split with the last dimension fastest (consecutive threads, consecutive
// addresses), and a bounds guard.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG:     %[[TOTAL:.*]] = arith.muli %c64{{.*}}, %c1024{{.*}} : index
// CHECK-DAG:     %[[T:.*]] = arith.constant 256 : index
// CHECK:         %[[NB:.*]] = arith.ceildivui %[[TOTAL]], %[[T]]
// CHECK:         scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[NB]])
// CHECK:           scf.parallel (%[[TID:.*]]) = (%{{.*}}) to (%[[T]])
// CHECK:             %[[L0:.*]] = arith.muli %[[B]], %[[T]]
// CHECK:             %[[L:.*]] = arith.addi %[[L0]], %[[TID]]
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[L]], %[[TOTAL]]
// CHECK:             scf.if %[[IN]]
// CHECK:               %[[J:.*]] = arith.remui %[[L]], %c1024
// CHECK:               %[[I:.*]] = arith.divui %[[L]], %c1024
// CHECK:               memref.load %arg0[%[[I]], %[[J]]]
// CHECK:               math.exp
// CHECK:               memref.store %{{.*}}, %arg1[%[[I]], %[[J]]]
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NOT:     linalg.
// T128-LABEL:  func.func @elementwise
// T128:          arith.constant 128 : index
// LAUNCH-LABEL: func.func @elementwise
// LAUNCH:        gpu.launch blocks({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// LAUNCH-NOT:    scf.parallel
func.func @elementwise(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x1024xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Tests that a row reduction gets one block per row whose threads stride
// through the row (thread t reads t, t+256, ...), combine with the max's
// neutral element (-inf) and reduce block-wide, then merge with the output.
// The output is read before the block-wide combination: read after it, a
// thread could see what another already stored (on a GPU this raced and
// added a row's sum twice now and then).
// CHECK-LABEL: func.func @row_max
// CHECK-DAG:     %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[T:.*]] = arith.constant 256 : index
// CHECK:         scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%c64
// CHECK:           %[[OLD:.*]] = memref.load %arg1[%[[ROW]]]
// CHECK:           %[[P:.*]] = scf.parallel (%[[TID:.*]]) = (%{{.*}}) to (%[[T]]) {{.*}} init (%[[NEG]]) -> f32
// CHECK:             %[[ACC:.*]] = scf.for %[[K:.*]] = %[[TID]] to %{{.*}} step %[[T]] iter_args(%[[A:.*]] = %[[NEG]])
// CHECK:               %[[V:.*]] = memref.load %arg0[%[[ROW]], %[[K]]]
// CHECK:               arith.maxnumf %[[V]], %[[A]]
// CHECK:             scf.reduce(%[[ACC]] : f32)
// CHECK:               arith.maxnumf
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK-NOT:       memref.load
// CHECK:           %[[NEW:.*]] = arith.maxnumf %[[OLD]], %[[P]]
// CHECK:           memref.store %[[NEW]], %arg1[%[[ROW]]]
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// LAUNCH-LABEL: func.func @row_max
// LAUNCH:        memref.load %arg1
// LAUNCH:        gpu.all_reduce
// LAUNCH-NOT:    memref.load
// LAUNCH:        memref.store
func.func @row_max(%x: memref<64x1024xf32>, %m: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1024xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maxnumf %a, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a full reduction to a scalar is one block of 256 threads over
// the 4096 linearized elements (not a host loop).
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         %[[N:.*]] = arith.muli %c64{{.*}}, %c64
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1
// CHECK:           scf.parallel {{.*}} to (%c256{{.*}}) {{.*}} init (%cst{{.*}}) -> f32
// CHECK:             scf.for {{.*}} = %{{.*}} to %[[N]] step %c256
// CHECK:               arith.remui
// CHECK:               arith.divui
// CHECK:             scf.reduce
func.func @sum_of_squares(%x: memref<64x64xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.mulf %a, %a : f32
    %r = arith.addf %o, %q : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Tests that a matmul left to the code generator and a short reduction get
// one thread per output element with a sequential loop, and that a copy
// becomes a kernel too (32 threads for the 8-element copy).
// CHECK-LABEL: func.func @sequential
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             scf.if
// CHECK:               scf.for {{.*}} iter_args
// CHECK:                 arith.mulf
// CHECK:                 arith.addf
// CHECK:         scf.parallel
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%c32
// CHECK:             scf.if
// CHECK:               scf.for {{.*}} = %{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args
// CHECK:         scf.parallel
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%c32
// CHECK:             memref.load %arg4
// CHECK:             memref.store %{{.*}}, %arg5
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.copy
func.func @sequential(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>,
                      %short: memref<8x4xf32>, %src: memref<8xf32>, %dst: memref<8xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.reduce ins(%short : memref<8x4xf32>) outs(%src : memref<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  memref.copy %src, %dst : memref<8xf32> to memref<8xf32>
  return
}
