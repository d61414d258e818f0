// Tests the noalias pointers of outlined loop nests: ckpt-outline-loop-nests
// records (ckpt.noalias_pointers, positions of the allocated and aligned
// pointers in the LLVM signature) the buffers no other argument reaches
// while either is written, and ckpt-apply-noalias-pointers marks them
// llvm.noalias after the conversion to the LLVM dialect.
// RUN: ckpt-opt %s --ckpt-outline-loop-nests --split-input-file | FileCheck %s
// RUN: ckpt-opt %s --ckpt-outline-loop-nests --finalize-memref-to-llvm --convert-scf-to-cf \
// RUN:   --convert-cf-to-llvm --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN:   --ckpt-apply-noalias-pointers --split-input-file | FileCheck %s --check-prefix=LLVM
// RUN: ckpt-opt %S/Inputs/noalias-pointers-invalid.mlir --ckpt-apply-noalias-pointers \
// RUN:   --verify-diagnostics --split-input-file

// Distinct allocations, an allocation and an argument of the step: every
// buffer (a rank-2 memref, a rank-1 memref and a scalar take 7, 5 and 1
// positions).
// CHECK-LABEL: func.func private @distinct__nest0(
// CHECK-SAME:      %{{.*}}: memref<8x8xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: f32, %{{.*}}: memref<8xf32>)
// CHECK-SAME:      ckpt.noalias_pointers = array<i64: 0, 1, 7, 8, 13, 14>
// LLVM-LABEL: llvm.func internal @distinct__nest0(
// LLVM-SAME:      %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}
// LLVM-NOT:   ckpt.noalias_pointers
func.func @distinct(%x: memref<8xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8x8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %b[%i, %i] : memref<8x8xf32>
    %w = memref.load %x[%i] : memref<8xf32>
    %sum = arith.addf %v, %w : f32
    %scaled = arith.mulf %sum, %s : f32
    memref.store %scaled, %a[%i] : memref<8xf32>
  }
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8x8xf32>
  return
}

// -----

// Two views of one allocation, one of them written: neither; the third
// buffer (the second argument) still is.
// CHECK-LABEL: func.func private @views__nest0(
// CHECK-SAME:      ckpt.noalias_pointers = array<i64: 5, 6>
func.func @views(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<8xf32>
  %low = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %high = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %low[%i] : memref<4xf32, strided<[1]>>
    %w = memref.load %x[%i] : memref<4xf32>
    %sum = arith.addf %v, %w : f32
    memref.store %sum, %high[%i] : memref<4xf32, strided<[1], offset: 4>>
  }
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// Views of one allocation that are only read, beside a written one: all.
// CHECK-LABEL: func.func private @reads__nest0(
// CHECK-SAME:      ckpt.noalias_pointers = array<i64: 0, 1, 5, 6, 10, 11>
func.func @reads() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<8xf32>
  %out = memref.alloc() : memref<4xf32>
  %low = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %high = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %low[%i] : memref<4xf32, strided<[1]>>
    %w = memref.load %high[%i] : memref<4xf32, strided<[1], offset: 4>>
    %sum = arith.addf %v, %w : f32
    memref.store %sum, %out[%i] : memref<4xf32>
  }
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %out : memref<4xf32>
  return
}

// -----

// Two arguments of the step, one written (a caller may pass one array
// twice), and a buffer handed to a call (may be written) beside a view of
// the same allocation: none.
// CHECK-LABEL: func.func private @unknown__nest0(
// CHECK-NOT:       ckpt.noalias_pointers
// CHECK-SAME:      {
// CHECK-LABEL: func.func private @unknown__nest1(
// CHECK-NOT:       ckpt.noalias_pointers
// CHECK-SAME:      {
func.func private @consume(memref<4xf32>)
func.func @unknown(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
  }
  %a = memref.alloc() : memref<4xf32>
  %cast = memref.cast %a : memref<4xf32> to memref<?xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @consume(%a) : (memref<4xf32>) -> ()
    %n = memref.dim %cast, %c0 : memref<?xf32>
  }
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Tests that the body of an OpenMP worksharing loop (what the translation to
// LLVM IR outlines again, with its buffers behind a structure) becomes a
// function of its own, `<nest>_body<N>`, taking the induction variable, the
// buffers of the step and the per-thread scratch buffer of the parallel
// region, with the step's noalias pointers; it may be inlined (no
// noinline). The nest then calls it inside the loop.
// CHECK-LABEL: func.func private @parallel__nest0_body0(
// CHECK-SAME:      %[[IV:.*]]: index, %[[X:.*]]: memref<64x16xf32>, %[[T:.*]]: memref<16xf32>, %[[Y:.*]]: memref<64x16xf32>)
// CHECK-SAME:      attributes {ckpt.noalias_pointers = array<i64: 1, 2, 8, 9, 13, 14>, llvm.linkage = #llvm.linkage<internal>}
// CHECK:         scf.for
// CHECK:           memref.load %[[X]][%[[IV]], %{{.*}}]
// CHECK:           memref.store %{{.*}}, %[[T]]
// CHECK:           memref.store %{{.*}}, %[[Y]][%[[IV]], %{{.*}}]
// CHECK-LABEL: func.func private @parallel__nest0(
// CHECK-SAME:      passthrough = ["noinline"]
// CHECK:         omp.parallel
// CHECK:           %[[SCRATCH:.*]] = memref.alloca() : memref<16xf32>
// CHECK:           omp.loop_nest (%[[I:.*]]) : index
// CHECK-NEXT:        func.call @parallel__nest0_body0(%[[I]], %{{.*}}, %[[SCRATCH]], %{{.*}})
// CHECK-NEXT:        omp.yield
func.func @parallel(%x: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %y = memref.alloc() : memref<64x16xf32>
  omp.parallel {
    %t = memref.alloca() : memref<16xf32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c64) step (%c1) {
        scf.for %j = %c0 to %c16 step %c1 {
          %v = memref.load %x[%i, %j] : memref<64x16xf32>
          memref.store %v, %t[%j] : memref<16xf32>
          memref.store %v, %y[%i, %j] : memref<64x16xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  memref.dealloc %y : memref<64x16xf32>
  return
}
