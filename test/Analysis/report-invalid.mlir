// Tests the error paths of ckpt-report: each is a located or named error and
// a failing pass, never a crash or a wrong number.
// RUN: ckpt-opt %s --split-input-file --verify-diagnostics --ckpt-report -o /dev/null

// Tests that a dynamic dimension cannot be sized.
// expected-error @+1 {{cannot size 'tensor<?x64xf32>' for the memory analysis: it needs statically shaped tensors}}
func.func @dynamic(%a: tensor<?x64xf32>) -> tensor<?x64xf32> {
  return %a : tensor<?x64xf32>
}

// -----

// Tests that a dynamic result inside the body is reported at its op.
func.func @dynamic_inside(%a: tensor<64x64xf32>, %n: index) -> tensor<?x64xf32> {
  // expected-error @+1 {{cannot size 'tensor<?x64xf32>' for the memory analysis}}
  %s = tensor.extract_slice %a[0, 0] [%n, 64] [1, 1] : tensor<64x64xf32> to tensor<?x64xf32>
  return %s : tensor<?x64xf32>
}

// -----

// Tests that a function with several blocks is rejected.
// expected-error @+1 {{'func.func' op has several blocks; the memory analysis handles structured control flow}}
func.func @blocks(%a: tensor<64xf32>, %c: i1) -> tensor<64xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : tensor<64xf32>
^bb2:
  return %a : tensor<64xf32>
}

// -----

// Tests that a region op with tensor region arguments other than scf.for and
// ckpt.recompute is named.
func.func @while_loop(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'scf.while' op has tensor region arguments, which the memory analysis does not model}}
  %r = scf.while (%x = %a) : (tensor<64xf32>) -> tensor<64xf32> {
    %c = arith.constant false
    scf.condition(%c) %x : tensor<64xf32>
  } do {
  ^bb0(%y: tensor<64xf32>):
    scf.yield %y : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// Tests that an unexpanded checkpoint region stops the analysis as it stops
// bufferization.
func.func @checkpoint(%a: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'ckpt.checkpoint' op must be expanded by the ckpt-remat pass before bufferization}}
  %r = ckpt.checkpoint(%x = %a : tensor<64xf32>) -> tensor<64xf32> {
    %e = math.exp %x : tensor<64xf32>
    ckpt.yield %e : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
