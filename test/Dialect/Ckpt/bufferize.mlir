// RUN: ckpt-opt %s --split-input-file \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s

// Tests that a recompute region bufferizes to its buffer form: memref inputs
// and region arguments, a fresh buffer as result.
// CHECK-LABEL: func.func @basic
// CHECK-SAME:    (%[[A:.*]]: memref<1024xf32>)
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X:.*]] = %[[A]] : memref<1024xf32>) -> memref<1024xf32> {
// CHECK:           %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
// CHECK:           linalg.exp ins(%[[X]] : memref<1024xf32>) outs(%[[B]] : memref<1024xf32>)
// CHECK:           ckpt.yield %[[B]] : memref<1024xf32>
// CHECK:         return %[[R]]
func.func @basic(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = tensor.empty() : tensor<1024xf32>
    %y = linalg.exp ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
    ckpt.yield %y : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// Tests that an op in the region that would write in place into a region
// input (a saved value) writes into a copy instead: the input is read-only.
// CHECK-LABEL: func.func @accumulate_into_input
// CHECK-SAME:    (%[[A:.*]]: memref<1024xf32>, %[[B:.*]]: memref<1024xf32>)
// CHECK:         ckpt.recompute(%[[X:.*]] = %[[A]] : memref<1024xf32>, %[[Y:.*]] = %[[B]] : memref<1024xf32>)
// CHECK:           %[[COPY:.*]] = memref.alloc()
// CHECK:           memref.copy %[[X]], %[[COPY]]
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[Y]] : memref<1024xf32>) outs(%[[COPY]] : memref<1024xf32>)
// CHECK:           ckpt.yield %[[COPY]]
// CHECK:         return %{{.*}}, %[[A]]
func.func @accumulate_into_input(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>, %y = %b : tensor<1024xf32>) -> tensor<1024xf32> {
    %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        ins(%y : tensor<1024xf32>) outs(%x : tensor<1024xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.addf %in, %acc : f32
      linalg.yield %v : f32
    } -> tensor<1024xf32>
    ckpt.yield %s : tensor<1024xf32>
  }
  return %r, %a : tensor<1024xf32>, tensor<1024xf32>
}

// -----

// Tests that yielding a region input gives the result a buffer of its own.
// CHECK-LABEL: func.func @yield_input
// CHECK:         ckpt.recompute(%[[X:.*]] = %{{.*}} : memref<1024xf32>)
// CHECK:           %[[COPY:.*]] = memref.alloc()
// CHECK:           memref.copy %[[X]], %[[COPY]]
// CHECK:           ckpt.yield %[[COPY]]
func.func @yield_input(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    ckpt.yield %x : tensor<1024xf32>
  }
  return %r : tensor<1024xf32>
}

// -----

// Tests that yielding a view of a region input copies it into an
// identity-layout buffer.
// CHECK-LABEL: func.func @yield_slice
// CHECK:         ckpt.recompute(%[[X:.*]] = %{{.*}} : memref<1024xf32>) -> memref<512xf32>
// CHECK:           %[[V:.*]] = memref.subview %[[X]][0] [512] [1]
// CHECK:           %[[COPY:.*]] = memref.alloc() {{.*}} : memref<512xf32>
// CHECK:           memref.copy %[[V]], %[[COPY]]
// CHECK:           ckpt.yield %[[COPY]] : memref<512xf32>
func.func @yield_slice(%a: tensor<1024xf32>) -> tensor<512xf32> {
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<512xf32> {
    %s = tensor.extract_slice %x[0] [512] [1] : tensor<1024xf32> to tensor<512xf32>
    ckpt.yield %s : tensor<512xf32>
  }
  return %r : tensor<512xf32>
}

// -----

// Tests that an outer op writing into a saved value before the recompute
// region reads it is not done in place: the region still sees the original.
// CHECK-LABEL: func.func @outer_write_before_read
// CHECK:         %[[SAVED:.*]] = memref.alloc()
// CHECK:         linalg.exp ins(%{{.*}} : memref<1024xf32>) outs(%[[SAVED]] : memref<1024xf32>)
// CHECK:         %[[OTHER:.*]] = memref.alloc()
// CHECK:         linalg.exp ins(%[[SAVED]] : memref<1024xf32>) outs(%[[OTHER]] : memref<1024xf32>)
// CHECK:         ckpt.recompute(%{{.*}} = %[[SAVED]] : memref<1024xf32>)
func.func @outer_write_before_read(%a: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %e = tensor.empty() : tensor<1024xf32>
  %saved = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %clobber = linalg.exp ins(%saved : tensor<1024xf32>) outs(%saved : tensor<1024xf32>) -> tensor<1024xf32>
  %r = ckpt.recompute(%x = %saved : tensor<1024xf32>) -> tensor<1024xf32> {
    %e2 = tensor.empty() : tensor<1024xf32>
    %y = linalg.negf ins(%x : tensor<1024xf32>) outs(%e2 : tensor<1024xf32>) -> tensor<1024xf32>
    ckpt.yield %y : tensor<1024xf32>
  }
  return %r, %clobber : tensor<1024xf32>, tensor<1024xf32>
}

// -----

// Tests that a region yielding several slices of one buffer it computes (a
// fused projection split into its parts) yields views of that buffer, in
// their layouts, and copies none of them: the memory analysis counts one
// buffer alive while any slice is.
// CHECK-LABEL: func.func @slices_of_one_buffer
// CHECK:         %[[R:.*]]:2 = ckpt.recompute(%{{.*}} = %{{.*}} : memref<3x4xf32>) -> (memref<4xf32, strided<[1], offset: 4>>, memref<4xf32, strided<[1], offset: 8>>) {
// CHECK:           %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-NOT:       memref.copy
// CHECK:           %[[S1:.*]] = memref.subview %[[B]][1, 0] [1, 4] [1, 1]
// CHECK:           %[[S2:.*]] = memref.subview %[[B]][2, 0] [1, 4] [1, 1]
// CHECK:           ckpt.yield %[[S1]], %[[S2]]
func.func @slices_of_one_buffer(%a: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = ckpt.recompute(%x = %a : tensor<3x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = tensor.empty() : tensor<3x4xf32>
    %y = linalg.exp ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
    %s1 = tensor.extract_slice %y[1, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
    %s2 = tensor.extract_slice %y[2, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
    ckpt.yield %s1, %s2 : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that a slice of a region input is still copied, into an identity
// layout: a recomputed value never aliases a saved one.
// CHECK-LABEL: func.func @slice_of_input
// CHECK:         ckpt.recompute(%[[X:.*]] = %{{.*}} : memref<3x4xf32>) -> memref<4xf32> {
// CHECK:           %[[S:.*]] = memref.subview %[[X]][1, 0] [1, 4] [1, 1]
// CHECK:           %[[C:.*]] = memref.alloc(){{.*}} : memref<4xf32>
// CHECK:           memref.copy %[[S]], %[[C]]
// CHECK:           ckpt.yield %[[C]]
func.func @slice_of_input(%a: tensor<3x4xf32>) -> tensor<4xf32> {
  %r = ckpt.recompute(%x = %a : tensor<3x4xf32>) -> tensor<4xf32> {
    %s = tensor.extract_slice %x[1, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
    ckpt.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that a donated input's buffer is written in place and handed on as
// the result: no allocation, no copy (a ReLU recomputed over the value it
// reads for the last time).
// CHECK-LABEL: func.func @donated_input
// CHECK-SAME:    (%[[A:.*]]: memref<1024xf32>)
// CHECK:         %[[T:.*]] = memref.alloc() {{.*}} : memref<1024xf32>
// CHECK:         linalg.exp ins(%[[A]] : memref<1024xf32>) outs(%[[T]] : memref<1024xf32>)
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X:.*]] = %[[T]] : memref<1024xf32>) -> memref<1024xf32> {
// CHECK-NOT:       memref.alloc
// CHECK-NOT:       memref.copy
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[X]] : memref<1024xf32>) outs(%[[X]] : memref<1024xf32>)
// CHECK:           ckpt.yield %[[X]] : memref<1024xf32>
// CHECK:         } attributes {donated = array<i64: 0>}
// CHECK:         return %[[R]]
func.func @donated_input(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %t = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = ckpt.recompute(%x = %t : tensor<1024xf32>) -> tensor<1024xf32> {
    %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<1024xf32>) outs(%x : tensor<1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %zero = arith.constant 0.0 : f32
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1024xf32>
    ckpt.yield %s : tensor<1024xf32>
  } attributes {donated = array<i64: 0>}
  return %r : tensor<1024xf32>
}

// -----

// Tests that a donated input that is read after the region is copied first:
// the region writes into the copy, and the later reader sees the input
// unchanged.
// CHECK-LABEL: func.func @donated_input_read_later
// CHECK:         %[[T:.*]] = memref.alloc() {{.*}} : memref<1024xf32>
// CHECK:         linalg.exp ins(%{{.*}} : memref<1024xf32>) outs(%[[T]] : memref<1024xf32>)
// CHECK:         %[[COPY:.*]] = memref.alloc()
// CHECK:         memref.copy %[[T]], %[[COPY]]
// CHECK:         %[[R:.*]] = ckpt.recompute(%[[X:.*]] = %[[COPY]] : memref<1024xf32>) -> memref<1024xf32> {
// CHECK:           ins(%[[X]] : memref<1024xf32>) outs(%[[X]] : memref<1024xf32>)
// CHECK:           ckpt.yield %[[X]] : memref<1024xf32>
// CHECK:         return %[[R]], %[[T]]
func.func @donated_input_read_later(%a: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %e = tensor.empty() : tensor<1024xf32>
  %t = linalg.exp ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = ckpt.recompute(%x = %t : tensor<1024xf32>) -> tensor<1024xf32> {
    %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        ins(%x : tensor<1024xf32>) outs(%x : tensor<1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %zero = arith.constant 0.0 : f32
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1024xf32>
    ckpt.yield %s : tensor<1024xf32>
  } attributes {donated = array<i64: 0>}
  return %r, %t : tensor<1024xf32>, tensor<1024xf32>
}
