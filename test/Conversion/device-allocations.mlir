// RUN: ckpt-opt %s --split-input-file --ckpt-device-allocations | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-device-allocations=host-shared=false | FileCheck %s --check-prefix=DEVICE
// RUN: ckpt-opt %s --split-input-file --ckpt-device-allocations=results-on-device=true | FileCheck %s --check-prefix=RESULTS

// Tests that a heap buffer only freed becomes device memory, allocated
// asynchronously and waited for, its free a synchronous GPU free, and that
// stack buffers stay on the host.
// CHECK-LABEL: func.func @buffers
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[B:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%arg0) : memref<?xf32>
// CHECK:         gpu.wait [%[[T1]]]
// CHECK:         memref.alloca() : memref<4xindex>
// CHECK:         %[[T2:.*]] = gpu.wait async
// CHECK:         %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[B]] : memref<?xf32>
// CHECK:         gpu.wait [%[[T3]]]
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

// Tests which buffers host code touches and so stay managed memory
// (host_shared): one returned through a view (the caller reads it), one the
// host loads from. Those only kernels-to-be (linalg ops, copies), the cuBLAS
// GEMM calls, views and frees touch are device memory. With
// host-shared=false, every buffer is device memory.
// CHECK-LABEL: func.func @host_or_device
// CHECK:         %[[RESULT:.*]] = gpu.alloc host_shared () : memref<4x8xf32>
// CHECK:         %[[LOADED:.*]] = gpu.alloc host_shared () : memref<8xf32>
// CHECK:         gpu.alloc async {{.*}} : memref<32xf32>
// CHECK:         gpu.alloc async {{.*}} : memref<4x8xf32>
// CHECK-NOT:     host_shared
// CHECK:         return
// DEVICE-LABEL: func.func @host_or_device
// DEVICE-NOT:     host_shared
// DEVICE:         return
// With results-on-device (ckpt-compile's glue copies results out), the
// returned buffer is device memory too; the loaded one stays managed.
// RESULTS-LABEL: func.func @host_or_device
// RESULTS:         gpu.alloc async {{.*}} : memref<4x8xf32>
// RESULTS:         gpu.alloc host_shared () : memref<8xf32>
// RESULTS-NOT:     host_shared
// RESULTS:         return
func.func private @ckpt_cuda_gemm_f32(memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>, i32, i32)
func.func @host_or_device(%w: memref<8x8xf32>) -> (memref<32xf32>, f32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %result = memref.alloc() : memref<4x8xf32>
  %loaded = memref.alloc() : memref<8xf32>
  %temporary = memref.alloc() : memref<32xf32>
  %product = memref.alloc() : memref<4x8xf32>
  %f0 = arith.constant 0.0 : f32
  linalg.fill ins(%f0 : f32) outs(%loaded : memref<8xf32>)
  %view = memref.expand_shape %temporary [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  func.call @ckpt_cuda_gemm_f32(%view, %w, %product, %zero, %zero) : (memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>, i32, i32) -> ()
  memref.copy %product, %result : memref<4x8xf32> to memref<4x8xf32>
  %v = memref.load %loaded[%c0] : memref<8xf32>
  %flat = memref.collapse_shape %result [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  memref.dealloc %loaded : memref<8xf32>
  memref.dealloc %temporary : memref<32xf32>
  memref.dealloc %product : memref<4x8xf32>
  return %flat, %v : memref<32xf32>, f32
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
