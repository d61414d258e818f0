// RUN: ckpt-opt %s --ckpt-privatize-inits --split-input-file | FileCheck %s

// A zero fill shared by two matmuls (torch-mlir's output initializes every
// matmul from one such fill): each matmul gets its own empty and fill, with
// the matmul's phase; the shared ones are erased.

// CHECK-LABEL: func.func @shared_fill
// CHECK-NOT: linalg.fill
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<4x4xf32>)
// CHECK-NEXT: linalg.matmul ins(%arg0, %arg1 : {{.*}}) outs(%[[F1]] : tensor<4x4xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x4xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%{{.*}} : f32) outs(%[[E2]] : tensor<4x4xf32>)
// CHECK-NEXT: linalg.matmul {ckpt.phase = #ckpt.phase<backward>} ins(%{{.*}}, %arg1 : {{.*}}) outs(%[[F2]] : tensor<4x4xf32>)
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @shared_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul {ckpt.phase = #ckpt.phase<backward>} ins(%m1, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// -----

// A fill also read as an input keeps the shared op for that use; of the
// writers of a shared tensor.empty, the first keeps it.

// CHECK-LABEL: func.func @fill_read_and_written
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8xf32>)
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>) outs(%[[E1]] : tensor<8xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<8xf32>)
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[Y]], %[[Z]] : tensor<8xf32>, tensor<8xf32>) outs(%[[Z2]] : tensor<8xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @fill_read_and_written(%x: tensor<8xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%y, %ones : tensor<8xf32>, tensor<8xf32>) outs(%ones : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32, %out: f32):
    %s = arith.addf %in, %o : f32
    %t = arith.addf %s, %out : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  return %z : tensor<8xf32>
}

// -----

// A fill used once is left alone.

// CHECK-LABEL: func.func @single_use
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @single_use(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// The generic form of a fill (what ckpt-generalize-and-fuse makes of one,
// and of the fills of reshaped views its folding merges: a grouped
// convolution's forward and its gradients' accumulators) is privatized
// the same way, so that no buffer lives from the forward to the backward.
// A generic that reads something, or yields a value it computes, is not a
// fill and keeps its users.

// CHECK-LABEL: func.func @shared_generic_fill
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.generic {{.*}} outs(%[[E1]] : tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : {{.*}}) outs(%[[F1]] : tensor<4x4xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x4xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.generic {{.*}} outs(%[[E2]] : tensor<4x4xf32>) attrs = {{.*}}#ckpt.phase<backward>
// CHECK: linalg.matmul {ckpt.phase = #ckpt.phase<backward>} ins(%{{.*}}, %arg1 : {{.*}}) outs(%[[F2]] : tensor<4x4xf32>)
// CHECK: %[[IOTA:.*]] = linalg.generic
// CHECK: linalg.matmul ins(%arg0, %arg1 : {{.*}}) outs(%[[IOTA]] : tensor<4x4xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : {{.*}}) outs(%[[IOTA]] : tensor<4x4xf32>)
// CHECK: return
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @shared_generic_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.generic {indexing_maps = [#identity], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    linalg.yield %zero : f32
  } -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul {ckpt.phase = #ckpt.phase<backward>} ins(%m1, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %iota = linalg.generic {indexing_maps = [#identity], iterator_types = ["parallel", "parallel"]} outs(%e2 : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %m3 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%iota : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m4 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%iota : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2, %m3, %m4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
