// Tests ckpt-inline-alloca-scopes: a scope without an alloca (as
// convert-scf-to-openmp wraps each loop body) is inlined, loops and all; one
// holding an alloca inside a loop stays.
// RUN: ckpt-opt %s --ckpt-inline-alloca-scopes | FileCheck %s

// CHECK-LABEL: func.func @no_alloca
// CHECK-NOT:     memref.alloca_scope
// CHECK:         scf.for
// CHECK:           memref.store
func.func @no_alloca(%x: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    memref.alloca_scope {
      scf.for %j = %c0 to %c16 step %c1 {
        memref.store %v, %x[%j] : memref<16xf32>
      }
    }
  }
  return
}

// CHECK-LABEL: func.func @alloca_in_loop
// CHECK:         scf.for
// CHECK-NEXT:      memref.alloca_scope
// CHECK-NEXT:        memref.alloca
func.func @alloca_in_loop(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    memref.alloca_scope {
      %t = memref.alloca() : memref<f32>
      %v = memref.load %t[] : memref<f32>
      memref.store %v, %x[%i] : memref<16xf32>
    }
  }
  return
}
