// Tests ckpt-strided-copies-to-linalg: a copy into a strided view becomes a
// linalg.copy; copies of contiguous buffers (one memcpy) and of 0-d ones
// stay memref.copy.
// RUN: ckpt-opt %s --ckpt-strided-copies-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @into_padding
// CHECK:         %[[VIEW:.*]] = memref.subview
// CHECK-NEXT:    linalg.copy ins(%arg0 : memref<2x3x4x4xf32>) outs(%[[VIEW]] : memref<2x3x4x4xf32, strided<[108, 36, 6, 1], offset: 7>>)
// CHECK-NOT:     memref.copy
func.func @into_padding(%x: memref<2x3x4x4xf32>, %padded: memref<2x3x6x6xf32>) {
  %view = memref.subview %padded[0, 0, 1, 1] [2, 3, 4, 4] [1, 1, 1, 1]
      : memref<2x3x6x6xf32> to memref<2x3x4x4xf32, strided<[108, 36, 6, 1], offset: 7>>
  memref.copy %x, %view : memref<2x3x4x4xf32> to memref<2x3x4x4xf32, strided<[108, 36, 6, 1], offset: 7>>
  return
}

// CHECK-LABEL: func.func @contiguous
// CHECK:         memref.copy %arg0, %arg1 : memref<8x16xf32> to memref<8x16xf32>
// CHECK:         memref.copy %arg2, %arg3 : memref<f32> to memref<f32>
// CHECK-NOT:     linalg.copy
func.func @contiguous(%a: memref<8x16xf32>, %b: memref<8x16xf32>, %s: memref<f32>, %t: memref<f32>) {
  memref.copy %a, %b : memref<8x16xf32> to memref<8x16xf32>
  memref.copy %s, %t : memref<f32> to memref<f32>
  return
}
