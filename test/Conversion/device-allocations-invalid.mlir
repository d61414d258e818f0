// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-device-allocations

// Tests that a dense constant buffer in host memory is an error.
memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @dense_global() -> memref<4xf32> {
  // expected-error @+1 {{constant buffer 'weights' lives in host memory that GPU kernels cannot read}}
  %m = memref.get_global @weights : memref<4xf32>
  return %m : memref<4xf32>
}

// -----

// Tests that a buffer with a non-identity layout is not silently allocated.
func.func @strided_alloc() {
  // expected-error @+1 {{cannot allocate a buffer with a non-identity layout on the GPU}}
  %b = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  return
}
