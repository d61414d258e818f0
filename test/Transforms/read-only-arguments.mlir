// RUN: ckpt-opt %s --ckpt-read-only-arguments | FileCheck %s

// Tensor arguments of public functions become read-only for bufferization;
// an argument that says otherwise keeps its attribute, scalars and private
// functions are left alone.
// CHECK-LABEL: func.func @step
// CHECK-SAME:    %{{.*}}: tensor<4xf32> {bufferization.writable = false}
// CHECK-SAME:    %{{.*}}: f32,
// CHECK-SAME:    %{{.*}}: tensor<4xf32> {bufferization.writable = true}
func.func @step(%a: tensor<4xf32>, %s: f32, %b: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK-LABEL: func.func private @helper
// CHECK-SAME:    (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// An op that would write into an argument writes into a new buffer
// instead (a copy of it when the op reads its destination): the caller's
// buffer is only read.
// RUN: ckpt-opt %s --ckpt-read-only-arguments --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=COPY
// COPY-LABEL: func.func @accumulate
// COPY:         %[[NEW:.*]] = memref.alloc
// COPY:         linalg.add ins(%arg0, %arg0 : {{.*}}) outs(%[[NEW]] : {{.*}})
// COPY:         return %[[NEW]]
func.func @accumulate(%x: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%acc : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
