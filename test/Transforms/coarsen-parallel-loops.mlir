// Tests ckpt-coarsen-parallel-loops: which scf.parallel loops stay
// parallel, over which dimensions, and that bodies keep their indices.
// RUN: ckpt-opt %s --ckpt-coarsen-parallel-loops="num-threads=2" | FileCheck %s
// RUN: ckpt-opt %s --ckpt-coarsen-parallel-loops | FileCheck %s --check-prefix=ONE
// RUN: ckpt-opt %s --ckpt-coarsen-parallel-loops="num-threads=2 min-work=0" | FileCheck %s --check-prefix=ALL
// RUN: not ckpt-opt %s --ckpt-coarsen-parallel-loops="num-threads=0" 2>&1 | FileCheck %s --check-prefix=BAD

// A 64x64x16x16 elementwise loop keeps its leading dimension parallel (64
// blocks for 2 threads); the others become loops inside it, with the body
// on the same indices.
// CHECK-LABEL: func.func @big
// CHECK:         scf.parallel (%[[N:.*]]) = (%c0) to (%c64) step (%c1) {
// CHECK-NEXT:      scf.for %[[C:.*]] = %c0 to %c64 step %c1 {
// CHECK-NEXT:        scf.for %[[H:.*]] = %c0 to %c16 step %c1 {
// CHECK-NEXT:          scf.for %[[W:.*]] = %c0 to %c16 step %c1 {
// CHECK-NEXT:            %[[X:.*]] = memref.load %arg0[%[[N]], %[[C]], %[[H]], %[[W]]]
// CHECK-NEXT:            %[[Y:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT:            memref.store %[[Y]], %arg1[%[[N]], %[[C]], %[[H]], %[[W]]]
// ONE-LABEL: func.func @big
// ONE-NOT:     scf.parallel
func.func @big(%x: memref<64x64x16x16xf32>, %y: memref<64x64x16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%n, %c, %h, %w) = (%c0, %c0, %c0, %c0) to (%c64, %c64, %c16, %c16) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %x[%n, %c, %h, %w] : memref<64x64x16x16xf32>
    %s = arith.mulf %v, %v : f32
    memref.store %s, %y[%n, %c, %h, %w] : memref<64x64x16x16xf32>
    scf.reduce
  }
  return
}

// A leading dimension of 3 is too few blocks: the next one joins it.
// ONE-LABEL: func.func @short_leading
// CHECK-LABEL: func.func @short_leading
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c3, %c512) step (%c1, %c1) {
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c512 step %c1 {
func.func @short_leading(%x: memref<3x512x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c3, %c512, %c512) step (%c1, %c1, %c1) {
    memref.store %zero, %x[%i, %j, %k] : memref<3x512x512xf32>
    scf.reduce
  }
  return
}

// 8x64 elements are not worth a team: loops (kept with min-work=0).
// CHECK-LABEL: func.func @small
// CHECK-NOT:     scf.parallel
// ALL-LABEL: func.func @small
// ALL:         scf.parallel
func.func @small(%x: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    memref.store %zero, %x[%i, %j] : memref<8x64xf32>
    scf.reduce
  }
  return
}

// A parallel loop inside a parallel one becomes a loop: here the outer
// loop's 64 iterations of 256 x 4 operations each stay parallel.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.parallel (%{{.*}}) = (%c0) to (%c64) step (%c1) {
// CHECK-NOT:       scf.parallel
// CHECK:           scf.for
// CHECK:         return
func.func @nested(%x: memref<64x256xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c) = (%c0) to (%c64) step (%c1) {
    scf.parallel (%k) = (%c0) to (%c256) step (%c1) {
      %v = memref.load %x[%c, %k] : memref<64x256xf32>
      %a = memref.load %y[%c] : memref<64xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %y[%c] : memref<64xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// Allocating inside the body would share the runtime's ledger: loops.
// CHECK-LABEL: func.func @allocates
// CHECK-NOT:     scf.parallel
// CHECK:         memref.alloc
func.func @allocates(%x: memref<512x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c512) step (%c1, %c1) {
    %t = memref.alloc() : memref<f32>
    %v = memref.load %t[] : memref<f32>
    memref.store %v, %x[%i, %j] : memref<512x512xf32>
    memref.dealloc %t : memref<f32>
    scf.reduce
  }
  return
}

// A loop with a reduction result is convert-scf-to-openmp's.
// CHECK-LABEL: func.func @reduction
// CHECK:         scf.parallel {{.*}} init
func.func @reduction(%x: memref<512x512xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c512) step (%c1, %c1) init (%zero) -> f32 {
    %v = memref.load %x[%i, %j] : memref<512x512xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}

// BAD: ckpt-coarsen-parallel-loops: num-threads must be at least 1 and min-work at least 0, got num-threads=0 min-work=65536
