// RUN: ckpt-opt %s --split-input-file --canonicalize --cse --loop-invariant-code-motion | FileCheck %s

// Tests that two identical recompute regions and the original computation they
// clone all survive canonicalization, CSE and LICM: merging them would undo
// the memory saving.
// CHECK-LABEL: func.func @identical_regions_survive
// CHECK:         %[[ORIG:.*]] = math.exp %[[A:.*]] : tensor<1024xf32>
// CHECK:         %[[R0:.*]] = ckpt.recompute(%[[X0:.*]] = %[[A]] : tensor<1024xf32>)
// CHECK-NEXT:      math.exp %[[X0]]
// CHECK:         %[[R1:.*]] = ckpt.recompute(%[[X1:.*]] = %[[A]] : tensor<1024xf32>)
// CHECK-NEXT:      math.exp %[[X1]]
// CHECK:         %[[S:.*]] = arith.addf %[[R0]], %[[R1]]
// CHECK:         arith.addf %[[S]], %[[ORIG]]
func.func @identical_regions_survive(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %orig = math.exp %a : tensor<1024xf32>
  %r0 = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %x : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  %r1 = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %x : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  %s = arith.addf %r0, %r1 : tensor<1024xf32>
  %t = arith.addf %s, %orig : tensor<1024xf32>
  return %t : tensor<1024xf32>
}

// -----

// Tests that an unused recompute region is removed (it only allocates).
// CHECK-LABEL: func.func @unused_region_is_dead
// CHECK-NOT:     ckpt.recompute
// CHECK:         return
func.func @unused_region_is_dead(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %e = math.exp %x : tensor<1024xf32>
    ckpt.yield %e : tensor<1024xf32>
  }
  return %a : tensor<1024xf32>
}

// -----

// Tests that a loop-invariant recompute region stays inside the loop: it is
// placed right before its use on purpose.
// CHECK-LABEL: func.func @not_hoisted
// CHECK:         scf.for
// CHECK:           ckpt.recompute
// CHECK:           scf.yield
func.func @not_hoisted(%a: tensor<1024xf32>, %n: index) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<1024xf32> {
    %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
      %e = math.exp %x : tensor<1024xf32>
      ckpt.yield %e : tensor<1024xf32>
    }
    %s = arith.addf %acc, %r : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  return %res : tensor<1024xf32>
}

// -----

// Tests that constants inside a region stay inside (the region is isolated
// from above) and the clone is not folded into the outer constant.
// CHECK-LABEL: func.func @constants_stay_inside
// CHECK:         ckpt.recompute
// CHECK:           arith.constant
// CHECK:           arith.mulf
// CHECK:           ckpt.yield
func.func @constants_stay_inside(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %two = arith.constant dense<2.0> : tensor<1024xf32>
  %orig = arith.mulf %a, %two : tensor<1024xf32>
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %c = arith.constant dense<2.0> : tensor<1024xf32>
    %m = arith.mulf %x, %c : tensor<1024xf32>
    ckpt.yield %m : tensor<1024xf32>
  }
  %s = arith.addf %orig, %r : tensor<1024xf32>
  return %s : tensor<1024xf32>
}
