// RUN: ckpt-opt %s --ckpt-generalize-and-fuse | FileCheck %s
// RUN: ckpt-opt %s --ckpt-generalize-and-fuse=fuse-elementwise=false \
// RUN:   | FileCheck %s --check-prefix=NOFUSE
// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-report=format=table \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=REPORT

// Tests that generalization and fusion keep the ckpt annotations: a
// generalized op keeps its own, a fused op gets those of its consumer, and
// the annotations of a producer fused away disappear with it.

#map = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @annotations
// CHECK:         %[[MM:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      attrs = {ckpt.name = "scores", ckpt.policy = #ckpt.policy<must_recompute>}
// CHECK:           arith.mulf
// The exp (must_save) is fused into the doubling generic: one op, with the
// consumer's annotations only.
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[MM]] :
// CHECK-SAME:      attrs = {ckpt.name = "doubled", ckpt.phase = #ckpt.phase<forward>}
// CHECK-NOT:       must_save
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK:         return

// NOFUSE-LABEL: func.func @annotations
// NOFUSE:         linalg.generic {{.*}}attrs = {ckpt.name = "scores", ckpt.policy = #ckpt.policy<must_recompute>}
// NOFUSE:         linalg.generic {{.*}}attrs = {ckpt.name = "activated", ckpt.policy = #ckpt.policy<must_save>}
// NOFUSE:           math.exp
// NOFUSE:         linalg.generic {{.*}}attrs = {ckpt.name = "doubled", ckpt.phase = #ckpt.phase<forward>}

// The report names the buffers by their annotations after the tensor
// preparation.
// REPORT: allocation doubled  tensor<64x64xf32>
func.func @annotations(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %m = linalg.matmul {ckpt.name = "scores", ckpt.policy = #ckpt.policy<must_recompute>}
         ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
         outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %x = linalg.exp {ckpt.name = "activated", ckpt.policy = #ckpt.policy<must_save>}
         ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>)
         attrs = {ckpt.name = "doubled", ckpt.phase = #ckpt.phase<forward>} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %g : tensor<64x64xf32>
}

// Elementwise ops on whole tensors keep their annotations on the linalg op
// (not on the scalar op of its payload); fused, the consumer's remain.
// CHECK-LABEL: func.func @elementwise
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {ckpt.name = "e", ckpt.policy = #ckpt.policy<must_save>}
// CHECK:           arith.addf %{{[^ ]*}}, %{{[^ ]*}} : f32
// CHECK:           math.exp %{{[^ ]*}} : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return

// NOFUSE-LABEL: func.func @elementwise
// NOFUSE:         linalg.generic {{.*}}attrs = {ckpt.name = "sum"}
// NOFUSE:           arith.addf %{{[^ ]*}}, %{{[^ ]*}} : f32
// NOFUSE:         linalg.generic {{.*}}attrs = {ckpt.name = "e", ckpt.policy = #ckpt.policy<must_save>}
// NOFUSE:           math.exp %{{[^ ]*}} : f32
func.func @elementwise(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = arith.addf %a, %b {ckpt.name = "sum"} : tensor<4x4xf32>
  %1 = math.exp %0 {ckpt.name = "e", ckpt.policy = #ckpt.policy<must_save>} : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
