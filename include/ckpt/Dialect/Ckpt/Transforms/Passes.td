//===- Passes.td - ckpt dialect transformations -----------*- tablegen -*-===//
//
// Lowerings of the ckpt dialect to upstream IR (recompute regions, random
// numbers), annotation removal and the expansion of user checkpoints.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_DIALECT_CKPT_TRANSFORMS_PASSES_TD
#define CKPT_DIALECT_CKPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerRecomputePass : Pass<"ckpt-lower-recompute"> {
  let summary = "Inline ckpt.recompute regions into plain upstream IR";
  let description = [{
    Replaces every `ckpt.recompute` by the ops of its region, with the region
    arguments replaced by the op's inputs and the results by the yielded
    values. Nested recompute regions are inlined innermost first.

    The CPU and GPU pipelines run this pass after `one-shot-bufferize` and
    before buffer deallocation: until then the region keeps canonicalize and
    CSE from merging the recomputation back into the original computation.
    The pass also works on tensors (for inspection and testing).

    A `ckpt.checkpoint` left in the input is an error: it must be expanded by
    `ckpt-remat` first, and lowering it silently would drop the user's
    request.

    Example:

    ```mlir
    // Before
    %r = ckpt.recompute(%x = %saved : memref<64xf32>) -> memref<64xf32> {
      %b = memref.alloc() : memref<64xf32>
      linalg.exp ins(%x : memref<64xf32>) outs(%b : memref<64xf32>)
      ckpt.yield %b : memref<64xf32>
    }
    // After
    %b = memref.alloc() : memref<64xf32>
    linalg.exp ins(%saved : memref<64xf32>) outs(%b : memref<64xf32>)
    ```
  }];
}

def StripAnnotationsPass : Pass<"ckpt-strip-annotations"> {
  let summary = "Remove the ckpt discardable attributes";
  let description = [{
    Removes `ckpt.policy`, `ckpt.name`, `ckpt.phase`, `ckpt.differentiate`
    from ops and `ckpt.tangent`/`ckpt.name` from function arguments and
    results. The lowering pipelines run it once the annotations have been
    used (right before bufferization): on memrefs the annotated ops have
    no results, which the dialect rejects for `ckpt.policy` and `ckpt.name`,
    and conversions would otherwise carry
    them onto LLVM-dialect ops, and tools without the ckpt dialect (such as
    `mlir-runner`) could not parse the result.

    Example:

    ```mlir
    %0 = arith.addf %a, %b {ckpt.phase = #ckpt.phase<forward>} : f32
    // becomes
    %0 = arith.addf %a, %b : f32
    ```
  }];
}

def LowerRandomPass : Pass<"ckpt-lower-random"> {
  let summary = "Lower ckpt.random_uniform to integer arithmetic in linalg";
  let description = [{
    Replaces every `ckpt.random_uniform` by a `linalg.generic` that computes,
    for each element, the Philox-4x32-10 block of counter `offset + i` (`i`
    the row-major linear index) and key `seed` with `arith` integer ops
    (`mului_extended`, `xori`, `addi`) and maps it to a float in [0, 1):
    f32 from the top 24 bits of the first word, f64 from 53 bits of the first
    two. The result is a pure function of seed, offset and index, so
    recomputing or fusing it reproduces the same bits.

    Example:

    ```mlir
    %u = ckpt.random_uniform %seed, %offset : tensor<4x8xf32>
    // becomes
    %e = tensor.empty() : tensor<4x8xf32>
    %u = linalg.generic {...} outs(%e : tensor<4x8xf32>) {
      // linalg.index, 10 Philox rounds, shift, uitofp, mulf
    }
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
}

def LowerAttentionPass : Pass<"ckpt-lower-attention"> {
  let summary = "Lower ckpt.attention and ckpt.attention_grad on memrefs to "
                "loops";
  let description = [{
    Runs after bufferization. Both ops walk the keys in blocks of a
    constant length (a multiple of 16 up to 128, balanced over the key
    count; 64 when it is dynamic): a block of K (and, in the backward, of V)
    is copied transposed, feature by key, into a zero-padded stack tile, so
    that a query row's scores against the block are one multiply-add per
    feature over a constant row of lanes, which LLVM vectorizes and keeps in
    registers; padded, masked and (causal) later keys score -inf.

    Each `ckpt.attention` becomes a parallel loop over the leading
    dimensions and tiles of 16 query rows; a tile shares each transposed key
    block (up to its last row when causal), and each row keeps a running
    maximum and sum (an online softmax), rescaling its output row once per
    block; the log-sum-exp is written at the end. Each `ckpt.attention_grad`
    becomes a parallel loop over the leading dimensions; per key block it
    recomputes each row's probabilities from the saved log-sum-exp,
    accumulates the block's dK and dV in transposed stack tiles (written
    out once the rows are done) and dQ in place (flash attention's
    backward). Nothing with two sequence dimensions exists and nothing is
    allocated on the heap: static tiles are `memref.alloca`s that
    `ckpt-hoist-loop-allocas` makes one per thread, dynamic ones live in a
    `memref.alloca_scope` per iteration, so the memory the analysis forecast
    for the op (its results) is what it uses. The multiply-adds (scores,
    dP, the outputs, dK, dV, dQ) take groups of 4 query rows at a time as
    `vector.fma` loops over 64-byte vectors whose accumulators are
    loop-carried, so each vector loaded from a tile serves all four rows;
    the other sums are reassociable (`fastmath<reassoc, contract>`) so that
    LLVM vectorizes them. Every order is fixed by the build, so a
    recomputation repeats the same bits. f32 and f64; bf16/f16 attention
    ops are an error here.

    Example:

    ```mlir
    ckpt.attention causal scale(0.25)
        ins(%q, %k, %v : memref<4x128x16xf32>, memref<4x128x16xf32>, memref<4x128x16xf32>)
        outs(%o, %l : memref<4x128x16xf32>, memref<4x128xf32>)
    // becomes
    scf.parallel (%h, %t) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %kt = memref.alloca() : memref<16x128xf32>   // one key block, transposed
      // rows 16t..16t+15: out = 0, then per key block up to the last row:
      // Kt = K[h, block]^T; per row: scores, max, exp, rescaled out += p V;
      // finally out /= sum, lse = max + log(sum)
    }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def DecomposeAttentionPass : Pass<"ckpt-decompose-attention"> {
  let summary = "Decompose ckpt.attention and ckpt.attention_grad into "
                "linalg on tensors";
  let description = [{
    For backends without a fused attention lowering (IREE runs it in its
    tensor preparation, before the memory analysis; the GPU pipeline with
    `keep-cuda-kernels`, for the attention the CUDA kernels do not take).
    `ckpt.attention` becomes the masked, scaled scores (a contraction and an
    elementwise generic), their row maximum, the exponentials, the row sums,
    the probabilities times the values divided by the sums, and the
    log-sum-exp; `ckpt.attention_grad` recomputes the probabilities as
    `exp(scores - lse)` and contracts them into dV, dP, dS, dQ and dK. The
    Sq x Sk tensors exist only inside each decomposition: the forward still
    keeps only the inputs, the output and the log-sum-exp for the backward.
    f32 and f64.

    Example:

    ```mlir
    %o, %lse = ckpt.attention causal scale(0.25) ins(%q, %k, %v : ...) outs(...)
    // becomes
    %s = linalg.generic {...} ins(%q, %k) ...        // sum_c q[i, c] k[j, c]
    %t = linalg.generic {...} ins(%s) ...            // scale, -inf where j > i
    %m = linalg.generic {...} ins(%t) ...            // row maximum
    %e = linalg.generic {...} ins(%t, %m) ...        // exp(t - m)
    %l = linalg.generic {...} ins(%e) ...            // row sum
    %w = linalg.generic {...} ins(%e, %v) ...        // sum_j e[i, j] v[j, :]
    %o = linalg.generic {...} ins(%w, %l) ...        // w / l
    %lse = linalg.generic {...} ins(%m, %l) ...      // m + log(l)
    ```
  }];
  let options = [
    Option<"keepCudaKernels", "keep-cuda-kernels", "bool", /*default=*/"false",
           "Leave the attention ops the fused CUDA kernels take "
           "(ckpt-attention-to-cuda: f32, head widths up to 256)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def RecomputeToBarrierPass
    : Pass<"ckpt-recompute-to-barrier", "mlir::ModuleOp"> {
  let summary = "Lower ckpt.recompute on tensors behind optimization barriers "
                "for downstream compilers";
  let description = [{
    ckpt's contract with other MLIR compilers (IREE, XLA-like stacks): after
    `ckpt-remat` (and `ckpt-strip-annotations`), this pass replaces every
    `ckpt.recompute` by its body, inlined on tensors, with each of the
    region's inputs passed through an optimization barrier of its own (and,
    with `barrier-results`, each of its results too; one value per barrier,
    as IREE's stream lowering rejects a barrier that mixes function
    arguments and computed values). The downstream compiler's CSE and
    folding then cannot merge the recomputation with the computation it
    repeats (which would undo the memory saving), nor move it across the
    barrier. The barrier is any op that takes values and returns them
    unchanged, named by `barrier`: `util.optimization_barrier` (IREE, the
    default), `stablehlo.optimization_barrier`, ... Its dialect need not be
    loaded: the op is then created unregistered (the pass allows
    unregistered dialects in its context) and printed in generic form,
    which the downstream tool parses. A `ckpt.checkpoint` left in the input
    is an error.

    With `barrier-on=key`, no tensor goes through a barrier: each region
    gets a key, an integer constant passed through the barrier and XORed
    with itself (a zero the downstream compiler cannot fold), and its
    recomputation XORs the key into the bits of what it computes: the body
    of every elementwise `linalg.generic` (all iterators parallel) XORs its
    yielded values (through a bitcast for floats), and a reduction whose
    operands all come from outside the recomputation (or from ops no key
    reached) gets its init keyed by an elementwise copy. The values are the
    same bits, but no op of the recomputation equals the one it repeats, so
    CSE keeps them apart. This is the form for IREE: a barrier on a tensor
    ends IREE's execution region (a region's transients are one slab,
    alive while any of its values is), whereas a scalar barrier at the
    function's entry leaves the step in one region whose transients IREE
    packs by lifetime (`ckpt-compile --backend=iree-cpu`).

    Example:

    ```mlir
    // Before
    %r = ckpt.recompute(%x = %saved : tensor<64xf32>) -> tensor<64xf32> {
      %e = tensor.empty() : tensor<64xf32>
      %t = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
      ckpt.yield %t : tensor<64xf32>
    }
    // After
    %b = "util.optimization_barrier"(%saved) : (tensor<64xf32>) -> tensor<64xf32>
    %e = tensor.empty() : tensor<64xf32>
    %t = linalg.exp ins(%b : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    %r = "util.optimization_barrier"(%t) : (tensor<64xf32>) -> tensor<64xf32>
    ```
  }];
  let options = [
    Option<"barrier", "barrier", "std::string",
           /*default=*/"\"util.optimization_barrier\"",
           "The barrier op, as 'dialect.op' (util.optimization_barrier, "
           "stablehlo.optimization_barrier, ...)">,
    Option<"barrierResults", "barrier-results", "bool", /*default=*/"true",
           "Also pass the recomputed values through a barrier (with "
           "barrier-on=values)">,
    Option<"barrierOn", "barrier-on", "std::string", /*default=*/"\"values\"",
           "What goes through the barrier: 'values' (the region's tensor "
           "inputs and results) or 'key' (one integer per region, whose "
           "opaque zero the recomputation XORs into its bits)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def ExpandCheckpointsPass
    : Pass<"ckpt-expand-checkpoints", "mlir::func::FuncOp"> {
  let summary = "Expand user ckpt.checkpoint regions into recompute regions";
  let description = [{
    Expands every `ckpt.checkpoint` of a function with the semantics of
    `torch.utils.checkpoint`: only the region's inputs are kept. The body is
    inlined where the region was, for its forward uses; the uses of its
    results in the backward pass (ops marked `ckpt.phase = backward` or
    depending on a `ckpt.tangent` argument; without markers, every use
    after the first use of any result) get a `ckpt.recompute` clone of the
    whole body, placed right before the first of them. `ckpt-remat` runs
    this expansion itself before it plans.

    Example:

    ```mlir
    // Before
    %h = ckpt.checkpoint(%a = %x : tensor<64xf32>) -> tensor<64xf32> {
      %e = tensor.empty() : tensor<64xf32>
      %t = linalg.exp ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
      ckpt.yield %t : tensor<64xf32>
    }
    // After: the body inlined for the forward use of %h, and a
    // ckpt.recompute of it before the first backward use.
    ```
  }];
  let dependentDialects = ["mlir::ckpt::CkptDialect"];
}

#endif // CKPT_DIALECT_CKPT_TRANSFORMS_PASSES_TD
