// Tests ckpt-hoist-loop-allocas: a static alloca in a loop body moves to the
// function's entry block, or, under OpenMP, to the start of its omp.parallel
// region (one buffer per thread), leaving the alloca scope that
// ckpt-inline-alloca-scopes then inlines; dynamic allocas and allocas
// outside loops stay.
// RUN: ckpt-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(ckpt-hoist-loop-allocas),ckpt-inline-alloca-scopes)' | FileCheck %s

// CHECK-LABEL: func.func @sequential
// CHECK-NEXT:    %[[ROW:.*]] = memref.alloca() : memref<64xf32>
// CHECK:         scf.parallel
// CHECK-NOT:       memref.alloca
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %[[ROW]]
func.func @sequential(%x: memref<16x8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %row = memref.alloca() : memref<64xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %v, %row[%j] : memref<64xf32>
      %r = memref.load %row[%j] : memref<64xf32>
      memref.store %r, %x[%i, %j] : memref<16x8xf32>
    }
    scf.reduce
  }
  return
}

// -----

// CHECK-LABEL: func.func @openmp
// CHECK:         omp.parallel {
// CHECK-NEXT:      %[[ROW:.*]] = memref.alloca() : memref<64xf32>
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest
// CHECK-NOT:           memref.alloca
// CHECK:               scf.for
// CHECK:                 memref.store %{{.*}}, %[[ROW]]
func.func @openmp(%x: memref<16x8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c16) step (%c1) {
        memref.alloca_scope {
          %row = memref.alloca() : memref<64xf32>
          scf.for %j = %c0 to %c8 step %c1 {
            memref.store %v, %row[%j] : memref<64xf32>
            %r = memref.load %row[%j] : memref<64xf32>
            memref.store %r, %x[%i, %j] : memref<16x8xf32>
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// CHECK-LABEL: func.func @stays
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK:         scf.if
// CHECK-NEXT:      memref.alloca() : memref<4xf32>
func.func @stays(%n: index, %c: i1, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %dynamic = memref.alloca(%n) : memref<?xf32>
    memref.store %v, %dynamic[%i] : memref<?xf32>
  }
  scf.if %c {
    %outside = memref.alloca() : memref<4xf32>
    memref.store %v, %outside[%c0] : memref<4xf32>
  }
  return
}
