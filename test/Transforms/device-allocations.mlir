// RUN: ckpt-opt %s --split-input-file --ckpt-device-allocations | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-device-allocations=host-shared=false | FileCheck %s --check-prefix=DEVICE

// Tests that heap buffers become managed GPU allocations (device memory
// with host-shared=false, allocated asynchronously and waited for), frees
// synchronous GPU frees, and stack buffers stay on the host.
// CHECK-LABEL: func.func @buffers
// CHECK:         %[[B:.*]] = gpu.alloc host_shared (%arg0) : memref<?xf32>
// CHECK:         memref.alloca() : memref<4xindex>
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[T1:.*]] = gpu.dealloc async [%[[T0]]] %[[B]] : memref<?xf32>
// CHECK:         gpu.wait [%[[T1]]]
// CHECK-NOT:     memref.alloc(
// CHECK-NOT:     memref.dealloc
// DEVICE-LABEL: func.func @buffers
// DEVICE:         %[[T0:.*]] = gpu.wait async
// DEVICE:         %[[B:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%arg0) : memref<?xf32>
// DEVICE:         gpu.wait [%[[T1]]]
// DEVICE:         gpu.dealloc async
func.func @buffers(%n: index) {
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  %s = memref.alloca() : memref<4xindex>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// Tests that a scalar global (no kernel reads it as a buffer) is accepted.
// CHECK-LABEL: func.func @scalar_global
// CHECK:         memref.get_global @g : memref<f32>
memref.global "private" constant @g : memref<f32> = dense<1.0>
func.func @scalar_global() -> f32 {
  %m = memref.get_global @g : memref<f32>
  %v = memref.load %m[] : memref<f32>
  return %v : f32
}
