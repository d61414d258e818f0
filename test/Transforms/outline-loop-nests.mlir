// Tests ckpt-outline-loop-nests: each top-level op with regions and no
// results (loop nests, OpenMP regions) moves into a private, internal,
// noinline function called in its place; buffers and scalars from above
// become its arguments, constants are cloned into it, and what is not a
// nest (allocations, frees, calls, loops with results) stays.
// RUN: ckpt-opt %s --ckpt-outline-loop-nests | FileCheck %s
// A second run changes nothing: a function that is one nest stays.
// RUN: ckpt-opt %s --ckpt-outline-loop-nests > %t.once
// RUN: ckpt-opt %t.once --ckpt-outline-loop-nests | diff - %t.once
// (The execution tests run every CPU build through it.)

// CHECK-LABEL: func.func private @step__nest0(
// CHECK-SAME:      %[[V:.*]]: f32, %[[A:.*]]: memref<16xf32>)
// CHECK-SAME:      attributes {ckpt.noalias_pointers = array<i64: 1, 2>, llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C16]]
// CHECK:           memref.store %[[V]], %[[A]][%[[I]]]
// CHECK:         return

// CHECK-LABEL: func.func private @step__nest1(
// CHECK-SAME:      %{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>)
// CHECK-SAME:      ckpt.noalias_pointers = array<i64: 0, 1, 5, 6>
// CHECK:         scf.parallel
// CHECK:           memref.load
// CHECK:           memref.store

// CHECK-LABEL: func.func @step(
// CHECK-SAME:      %[[X:.*]]: memref<16xf32>, %[[S:.*]]: f32) -> f32
// CHECK:         %[[B:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    call @step__nest0(%[[S]], %[[B]]) : (f32, memref<16xf32>) -> ()
// CHECK-NEXT:    call @step__nest1(%[[B]], %[[X]]) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK:         %[[SUM:.*]] = scf.for {{.*}} iter_args
// CHECK:         return %[[SUM]]
func.func @step(%x: memref<16xf32>, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %b = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %s, %b[%i] : memref<16xf32>
  }
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %b[%i] : memref<16xf32>
    memref.store %v, %x[%i] : memref<16xf32>
  }
  memref.dealloc %b : memref<16xf32>
  %zero = arith.constant 0.0 : f32
  // A loop with results stays (its values are the function's).
  %sum = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %x[%i] : memref<16xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  return %sum : f32
}

// Declarations have nothing to outline.
// CHECK-LABEL: func.func private @external(memref<16xf32>)
func.func private @external(memref<16xf32>)
