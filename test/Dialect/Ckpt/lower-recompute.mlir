// RUN: ckpt-opt %s --split-input-file --ckpt-lower-recompute | FileCheck %s

// Tests that a buffer-form region is inlined with its arguments replaced by
// the inputs and its result by the yielded buffer.
// CHECK-LABEL: func.func @memref_form
// CHECK-SAME:    (%[[A:.*]]: memref<1024xf32>)
// CHECK-NOT:     ckpt.
// CHECK:         %[[B:.*]] = memref.alloc() : memref<1024xf32>
// CHECK:         linalg.exp ins(%[[A]] : memref<1024xf32>) outs(%[[B]] : memref<1024xf32>)
// CHECK:         return %[[B]]
func.func @memref_form(%a: memref<1024xf32>) -> memref<1024xf32> {
  %r = ckpt.recompute(%x = %a : memref<1024xf32>) -> memref<1024xf32> {
    %b = memref.alloc() : memref<1024xf32>
    linalg.exp ins(%x : memref<1024xf32>) outs(%b : memref<1024xf32>)
    ckpt.yield %b : memref<1024xf32>
  }
  return %r : memref<1024xf32>
}

// -----

// Tests that the tensor form is inlined too, in place, keeping program order.
// CHECK-LABEL: func.func @tensor_form
// CHECK:         %[[M:.*]] = math.exp %{{.*}}
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[M]]
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[N]], %[[M]]
// CHECK-NEXT:    return %[[S]]
func.func @tensor_form(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %m = math.exp %a : tensor<1024xf32>
  %r = ckpt.recompute(%x = %m : tensor<1024xf32>) -> tensor<1024xf32> {
    %n = arith.negf %x : tensor<1024xf32>
    ckpt.yield %n : tensor<1024xf32>
  }
  %s = arith.addf %r, %m : tensor<1024xf32>
  return %s : tensor<1024xf32>
}

// -----

// Tests that nested regions are inlined innermost first and that a yielded
// region argument is replaced by the matching input.
// CHECK-LABEL: func.func @nested_and_passthrough
// CHECK-SAME:    (%[[A:.*]]: tensor<1024xf32>, %[[B:.*]]: tensor<1024xf32>)
// CHECK-NOT:     ckpt.
// CHECK:         %[[E:.*]] = math.exp %[[A]]
// CHECK:         %[[T:.*]] = math.tanh %[[E]]
// CHECK:         return %[[T]], %[[B]]
func.func @nested_and_passthrough(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %r:2 = ckpt.recompute(%x = %a : tensor<1024xf32>, %y = %b : tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
    %inner = ckpt.recompute(%z = %x : tensor<1024xf32>) -> tensor<1024xf32> {
      %e = math.exp %z : tensor<1024xf32>
      ckpt.yield %e : tensor<1024xf32>
    }
    %t = math.tanh %inner : tensor<1024xf32>
    ckpt.yield %t, %y : tensor<1024xf32>, tensor<1024xf32>
  }
  return %r#0, %r#1 : tensor<1024xf32>, tensor<1024xf32>
}

// -----

// Tests that bufferization followed by lowering leaves plain upstream IR:
// the to_tensor views of region arguments do not survive.
// CHECK-LABEL: func.func @after_bufferization
// CHECK-NOT:     bufferization.to_tensor
// CHECK-NOT:     ckpt.
// CHECK:         linalg.generic
// CHECK:         return
func.func @after_bufferization(%a: memref<1024xf32>) -> memref<1024xf32> {
  %r = ckpt.recompute(%x = %a : memref<1024xf32>) -> memref<1024xf32> {
    %t = bufferization.to_tensor %x restrict : memref<1024xf32> to tensor<1024xf32>
    %b = memref.alloc() : memref<1024xf32>
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                    iterator_types = ["parallel"]}
        ins(%x : memref<1024xf32>) outs(%b : memref<1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.mulf %in, %in : f32
      linalg.yield %v : f32
    }
    ckpt.yield %b : memref<1024xf32>
  }
  return %r : memref<1024xf32>
}
