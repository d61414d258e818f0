// RUN: ckpt-opt %s --split-input-file --ckpt-recompute-to-barrier | FileCheck %s
// RUN: ckpt-opt %s --split-input-file --ckpt-recompute-to-barrier="barrier=stablehlo.optimization_barrier barrier-results=false" | FileCheck %s --check-prefix=STABLEHLO
// RUN: ckpt-opt %s --split-input-file --ckpt-recompute-to-barrier --canonicalize --cse | FileCheck %s --check-prefix=CSE

// Tests that a recompute region is inlined on tensors with its inputs and
// its result behind util.optimization_barrier (generic form, the dialect is
// not loaded), and that canonicalize + CSE then keep the recomputation
// apart from the computation it repeats.
// CHECK-LABEL: func.func @one_region
// CHECK:         %[[E:.*]] = math.exp %[[X:.*]] : tensor<1024xf32>
// CHECK:         %[[B:.*]] = "util.optimization_barrier"(%[[X]]) : (tensor<1024xf32>) -> tensor<1024xf32>
// CHECK:         %[[R:.*]] = math.exp %[[B]] : tensor<1024xf32>
// CHECK:         %[[RB:.*]] = "util.optimization_barrier"(%[[R]]) : (tensor<1024xf32>) -> tensor<1024xf32>
// CHECK:         arith.addf %{{.*}}, %[[RB]]
// CHECK-NOT:     ckpt.
// STABLEHLO-LABEL: func.func @one_region
// STABLEHLO:       %[[B:.*]] = "stablehlo.optimization_barrier"(%{{.*}})
// STABLEHLO:       %[[R:.*]] = math.exp %[[B]]
// STABLEHLO-NOT:   "stablehlo.optimization_barrier"(%[[R]])
// STABLEHLO:       arith.addf %{{.*}}, %[[R]]
// CSE-LABEL: func.func @one_region
// CSE-COUNT-2:  math.exp
func.func @one_region(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = math.exp %x : tensor<1024xf32>
  %t = math.tanh %e : tensor<1024xf32>
  %r = ckpt.recompute(%xx = %x : tensor<1024xf32>) -> tensor<1024xf32> {
    %re = math.exp %xx : tensor<1024xf32>
    ckpt.yield %re : tensor<1024xf32>
  }
  %s = arith.addf %t, %r : tensor<1024xf32>
  return %s : tensor<1024xf32>
}

// -----

// Tests that nested regions are lowered innermost first, each behind its
// own barriers, and that a region yielding its input yields the barrier's
// value.
// CHECK-LABEL: func.func @nested
// CHECK:         %[[B1:.*]] = "util.optimization_barrier"(%{{.*}}) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK:         %[[B2:.*]] = "util.optimization_barrier"(%[[B1]])
// CHECK:         %[[N:.*]] = math.exp %[[B2]]
// CHECK:         "util.optimization_barrier"(%[[N]])
// CHECK-NOT:     ckpt.recompute
func.func @nested(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = ckpt.recompute(%a = %x : tensor<16xf32>) -> tensor<16xf32> {
    %inner = ckpt.recompute(%b = %a : tensor<16xf32>) -> tensor<16xf32> {
      %e = math.exp %b : tensor<16xf32>
      ckpt.yield %e : tensor<16xf32>
    }
    ckpt.yield %inner : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
