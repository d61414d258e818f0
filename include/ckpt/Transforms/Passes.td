//===- Passes.td - tensor preparation and checks ----------*- tablegen -*-===//
//
// The tensor stage the pipelines share (inlining, decomposition,
// generalization and fusion, private init tensors) and the check that a
// lowering left nothing behind.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_TRANSFORMS_PASSES_TD
#define CKPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DecomposeAggregatesPass : Pass<"ckpt-decompose-aggregates"> {
  let summary = "Decompose aggregate linalg ops (e.g. linalg.softmax)";
  let description = [{
    Rewrites every op that implements `linalg::AggregatedOpInterface` (such as
    `linalg.softmax`) into the simpler linalg ops that compute it, so that the
    CPU and GPU pipelines (and the memory analysis) see the tensors that are
    really materialized. Upstream lowerings leave such ops in place without
    an error.

    Example:

    ```mlir
    %s = linalg.softmax dimension(1) ins(%x : tensor<8x64xf32>)
                        outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
    // becomes a max reduction, a subtract-and-exp generic, a sum reduction
    // and a division generic.
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def VerifyLLVMLoweringPass : Pass<"ckpt-verify-llvm-lowering", "mlir::ModuleOp"> {
  let summary = "Check that a module holds only LLVM-dialect ops";
  let description = [{
    The last step of the lowering pipelines. Every op in the module other
    than the module itself must belong to the LLVM dialect; anything else
    (an op no conversion handled, a leftover `unrealized_conversion_cast`)
    is reported as an error naming the op, once per op name, at its first
    location, and the pass fails. Without this check such a module only
    fails later, in translation or at JIT time, with a less precise message.

    With `allow-gpu-binary`, the ops a GPU host module keeps until
    translation to LLVM IR are accepted too: `gpu.binary` (the embedded
    cubin) and `gpu.launch_func` (translated into `mgpu*` runtime calls);
    every other op of the GPU dialect (an unoutlined `gpu.launch`, a leftover
    `gpu.module`) is still an error.

    Example error:

    ```
    error: 'linalg.softmax' was not lowered to the LLVM dialect
    ```
  }];
  let options = [
    Option<"allowGpuBinary", "allow-gpu-binary", "bool", /*default=*/"false",
           "Also accept gpu.binary and gpu.launch_func (host side of the GPU "
           "pipeline)">,
  ];
}

def InlinePrivateFunctionsPass : Pass<"ckpt-inline-private-functions", "mlir::ModuleOp"> {
  let summary = "Inline calls to private functions, keep public entry points";
  let description = [{
    Inlines every call whose callee is a private function defined in the
    module (and erases the callee once unused); calls to public functions
    (entry points with a fixed ABI, such as a training step called from a
    driver) and to external declarations stay. No simplification runs on the
    result, so constants are not folded into the program.

    The pipelines run it before bufferization: buffer deallocation cannot
    know who owns a buffer returned by a call, frees it only at the end of the
    caller's block, and the measured peak would then exceed what the program
    needs.

    Example:

    ```mlir
    func.func private @layer(%x: tensor<64xf32>) -> tensor<64xf32> { ... }
    func.func @step(%x: tensor<64xf32>) -> tensor<64xf32> {
      %h = call @layer(%x) : (tensor<64xf32>) -> tensor<64xf32>   // inlined
      ...
    }
    ```
  }];
}

def GeneralizeAndFusePass
    : Pass<"ckpt-generalize-and-fuse"> {
  let summary = "Turn elementwise tensor ops and named linalg ops into "
                "linalg.generic and fuse elementwise ops, keeping the ckpt "
                "annotations";
  let description = [{
    Rewrites elementwise arith/math ops on ranked tensors and named linalg
    ops (`linalg.matmul`, `linalg.exp`, ...) into `linalg.generic` and, with
    `fuse-elementwise`, fuses elementwise producers into their consumers,
    with the upstream patterns (`convert-elementwise-to-linalg`,
    `linalg-generalize-named-ops`, `linalg-fuse-elementwise-ops`). Unlike the
    upstream passes, it carries the `ckpt.*` discardable attributes
    (`ckpt.name`, `ckpt.policy`, `ckpt.phase`) from each replaced op onto the
    op that replaces it: a generalized op keeps its own annotations, a fused
    op those of the consumer it replaces (a fused producer no longer
    materializes a tensor, so there is nothing left to name, keep or
    recompute); the scalar ops of a converted elementwise op's payload do
    not keep them. `ckpt-tensor-prep` runs it, so annotations written on the
    input survive into what the memory analysis and the remat pass see.

    Example:

    ```mlir
    %0 = linalg.matmul {ckpt.name = "scores"} ins(%a, %b : ...) outs(%c : ...)
    // becomes
    %0 = linalg.generic {...} ins(%a, %b : ...) outs(%c : ...)
           attrs = {ckpt.name = "scores"} { ... }
    ```
  }];
  let options = [
    Option<"fuseElementwise", "fuse-elementwise", "bool", /*default=*/"true",
           "Also fuse elementwise producers into their consumers">,
  ];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::affine::AffineDialect",
    "mlir::tensor::TensorDialect", "mlir::arith::ArithDialect",
  ];
}

def PrivatizeInitsPass : Pass<"ckpt-privatize-inits"> {
  let summary = "Give every writer of a shared linalg.fill or tensor.empty "
                "its own";
  let description = [{
    Importers and CSE share one zero-filled tensor, or one `tensor.empty`,
    between many destination-style ops (torch-mlir's output initializes
    every matmul of a training step from the same `linalg.fill` and writes
    most elementwise results into a handful of empties). Bufferization then
    keeps a shared fill in one buffer from its definition to its last use
    and copies it before every other write, and writes values with unrelated
    lifetimes into the buffer of a shared empty; the memory analysis groups
    the values of one buffer together, and such a group ties the whole
    function into one node that the remat pass cannot recompute.

    This pass clones a fill of a `tensor.empty` that is written into
    (`outs`) by several ops right before each of them, with a private
    `tensor.empty` as its destination, and gives every writer of a shared
    `tensor.empty` but the first its own. Each clone takes its user's
    `ckpt.phase` when the user has one. A fill also read as an input keeps
    the shared op for that use; fills and empties left without uses are
    erased. Filling costs what the copy it replaces cost, and no buffer is
    shared by values that do not share a lifetime. `ckpt-tensor-prep` runs
    it before generalization.

    Example:

    ```mlir
    %e = tensor.empty() : tensor<4x4xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %a = linalg.matmul ins(%x, %y : ...) outs(%z : tensor<4x4xf32>) -> ...
    %b = linalg.matmul ins(%u, %v : ...) outs(%z : tensor<4x4xf32>) -> ...
    // becomes a tensor.empty and a linalg.fill right before each matmul
    ```
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
  ];
}


#endif // CKPT_TRANSFORMS_PASSES_TD
