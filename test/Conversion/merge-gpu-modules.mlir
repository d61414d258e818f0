// RUN: ckpt-opt %s --ckpt-merge-gpu-modules | FileCheck %s

// Tests that outlined kernels move into the first gpu.module: colliding
// names take their module's name, a helper's uses inside its old module
// follow its renaming, launches point at the new places, and a module with
// other attributes (here a target) stays apart.

// CHECK-LABEL: gpu.module @f_kernel {
// CHECK:         gpu.func @f_kernel(%{{.*}}: memref<4xf32>) kernel
// CHECK:         func.func @helper(
// CHECK:         gpu.func @f_kernel_0(%{{.*}}: memref<4xf32>) kernel
// CHECK:           call @f_kernel_0_1(
// CHECK:         func.func @f_kernel_0_1(
// CHECK:         gpu.func @f_kernel_1(%{{.*}}: memref<4xf32>) kernel
// CHECK:       }
// CHECK:       gpu.module @g_kernel [#nvvm.target]
// CHECK-NOT:   gpu.module
// CHECK-LABEL: func.func @f(
// CHECK:         gpu.launch_func @f_kernel::@f_kernel
// CHECK:         gpu.launch_func @f_kernel::@f_kernel_0
// CHECK:         gpu.launch_func @f_kernel::@f_kernel_1
// CHECK:         gpu.launch_func @g_kernel::@g_kernel

module attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
    func.func @helper(%x: f32) -> f32 {
      return %x : f32
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<4xf32>
      %r = func.call @helper(%v) : (f32) -> f32
      memref.store %r, %m[%c0] : memref<4xf32>
      gpu.return
    }
    func.func @helper(%x: f32) -> f32 {
      %y = arith.negf %x : f32
      return %y : f32
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @g_kernel [#nvvm.target] {
    gpu.func @g_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @g_kernel::@g_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}
