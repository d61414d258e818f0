// A complete training step of a 2-layer MLP (forward, mean-squared-error loss,
// backward), hand-differentiated, on 64x64 f32 tensors (16 KiB each). This is
// the bundled program of `scripts/run-compiler-demo.sh`: its @main, compiled
// with ckpt-cpu-pipeline, prints the loss, slices of both weight gradients
// and the peak bytes measured by libckpt_runtime (test/Integration/CPU); the
// demo runs @train_step with ckpt-run, which prints its named results.
//
//   z1 = x @ w1          h1 = relu(z1)        y = h1 @ w2
//   loss = sum((y - t)^2) / N
//   dy  = 2 (y - t) / N
//   dw2 = h1^T @ dy      dh1 = dy @ w2^T      dz1 = dh1 * (z1 > 0)
//   dw1 = x^T @ dz1
//
// The forward activations z1 and h1 are kept for the backward pass: they are
// what ckpt's remat pass will trade for recomputation.

#id = affine_map<(i, j) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @ckpt_runtime_print_report()
func.func private @ckpt_runtime_reset()

func.func private @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

func.func private @transpose(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %t = linalg.transpose ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  return %t : tensor<64x64xf32>
}

func.func @train_step(%x: tensor<64x64xf32>, %t: tensor<64x64xf32>,
                      %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>)
    -> (tensor<f32> {ckpt.name = "loss"}, tensor<64x64xf32> {ckpt.name = "grad_w1"},
        tensor<64x64xf32> {ckpt.name = "grad_w2"}) {
  %c0 = arith.constant 0.0 : f32
  %inv_n = arith.constant 2.44140625e-04 : f32  // 1 / 4096
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>

  // Forward.
  %z1 = call @matmul(%x, %w1) {ckpt.name = "z1"} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %h1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z1 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %y = call @matmul(%h1, %w2) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>

  // Loss.
  %diff = arith.subf %y, %t : tensor<64x64xf32>
  %se = tensor.empty() : tensor<f32>
  %zero = linalg.fill ins(%c0 : f32) outs(%se : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction", "reduction"]}
      ins(%diff : tensor<64x64xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%d: f32, %acc: f32):
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%sum : tensor<f32>) outs(%se : tensor<f32>) {
  ^bb0(%s: f32, %o: f32):
    %l = arith.mulf %s, %inv_n : f32
    linalg.yield %l : f32
  } -> tensor<f32>

  // Backward.
  %dy = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%diff : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%d: f32, %o: f32):
    %g = arith.mulf %d, %two : f32
    %gn = arith.mulf %g, %inv_n : f32
    linalg.yield %gn : f32
  } -> tensor<64x64xf32>
  %h1t = call @transpose(%h1) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %dw2 = call @matmul(%h1t, %dy) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %w2t = call @transpose(%w2) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %dh1 = call @matmul(%dy, %w2t) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %dz1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dh1, %z1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%g: f32, %z: f32, %o: f32):
    %pos = arith.cmpf ogt, %z, %c0 : f32
    %r = arith.select %pos, %g, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %xt = call @transpose(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %dw1 = call @matmul(%xt, %dz1) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %loss, %dw1, %dw2 : tensor<f32>, tensor<64x64xf32>, tensor<64x64xf32>
}

/// ((a*i + b*j) mod m - m/2) * scale: deterministic inputs the compiler
/// cannot fold away.
func.func private @pattern(%a: index, %b: index, %m: index, %scale: f32) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ai = arith.muli %a, %i : index
    %bj = arith.muli %b, %j : index
    %s = arith.addi %ai, %bj : index
    %r = arith.remui %s, %m : index
    %c2 = arith.constant 2 : index
    %h = arith.divui %m, %c2 : index
    %ri = arith.index_cast %r : index to i64
    %hi = arith.index_cast %h : index to i64
    %d = arith.subi %ri, %hi : i64
    %f = arith.sitofp %d : i64 to f32
    %v = arith.mulf %f, %scale : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}

func.func private @print_head(%g: tensor<64x64xf32>) {
  %s = tensor.extract_slice %g[0, 0] [1, 4] [1, 1] : tensor<64x64xf32> to tensor<1x4xf32>
  %u = tensor.cast %s : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %quarter = arith.constant 0.25 : f32
  %eighth = arith.constant 0.125 : f32
  %x = call @pattern(%c1, %c2, %c5, %quarter) : (index, index, index, f32) -> tensor<64x64xf32>
  %t = call @pattern(%c2, %c1, %c7, %quarter) : (index, index, index, f32) -> tensor<64x64xf32>
  %w1 = call @pattern(%c3, %c1, %c7, %eighth) : (index, index, index, f32) -> tensor<64x64xf32>
  %w2 = call @pattern(%c1, %c3, %c5, %eighth) : (index, index, index, f32) -> tensor<64x64xf32>
  call @ckpt_runtime_reset() : () -> ()
  %loss, %dw1, %dw2 = call @train_step(%x, %t, %w1, %w2)
      : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>)
      -> (tensor<f32>, tensor<64x64xf32>, tensor<64x64xf32>)
  call @ckpt_runtime_print_report() : () -> ()
  %l = tensor.cast %loss : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%l) : (tensor<*xf32>) -> ()
  call @print_head(%dw1) : (tensor<64x64xf32>) -> ()
  call @print_head(%dw2) : (tensor<64x64xf32>) -> ()
  return
}
