//===- Passes.td - ckpt transformation passes --------------*- tablegen -*-===//

#ifndef CKPT_TRANSFORMS_PASSES_TD
#define CKPT_TRANSFORMS_PASSES_TD

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

def ReportPass : Pass<"ckpt-report", "mlir::ModuleOp"> {
  let summary = "Report peak memory, saved activations, FLOPs and time";
  let description = [{
    For every function with a body, reports what the memory analysis and the
    cost model find, as a readable table or as JSON:

    - `argument_bytes`: the arguments (allocated by the caller);
    - `peak_bytes`, `peak_op`: the highest bytes alive at one program point
      as the ckpt pipelines will allocate them, and the op where it occurs;
    - `live_at_peak`: the largest buffers alive there (name or location,
      type, bytes);
    - `saved_activation_bytes`: forward values kept for the backward pass;
    - `constant_bytes`: tensor constants (globals, not allocations);
    - `flops` (`forward`, `backward`, `total`) and `estimated_time_s` on the
      chosen target.

    Run it on the IR as it will be bufferized, i.e. after the tensor
    preparation of the pipeline (`--ckpt-tensor-prep`), so that decomposed,
    fused and inlined ops are counted as they will be materialized. The IR is
    not changed.

    Example:

    ```
    ckpt-opt step.mlir --ckpt-tensor-prep \
      --ckpt-report="format=json output=report.json target=h100-sxm" -o /dev/null
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the report to ('-' for standard output)">,
    Option<"format", "format", "std::string", /*default=*/"\"table\"",
           "Report format: 'table' or 'json'">,
    Option<"target", "target", "std::string", /*default=*/"\"h100-sxm\"",
           "Device target for time estimates: h100-sxm, h200, a100-80g, cpu, "
           "or a JSON target file">,
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"false",
           "Estimate f32 contractions at the TF32 tensor-core rate">,
    Option<"topValues", "top-values", "unsigned", /*default=*/"10",
           "How many of the largest buffers alive at the peak to list">,
    ListOption<"functionNames", "functions", "std::string",
               "Report only these functions (default: every function with a "
               "body); naming one that does not exist is an error">,
  ];
}

def AutodiffPass : Pass<"ckpt-autodiff", "mlir::ModuleOp"> {
  let summary = "Reverse-mode differentiation of a loss function on tensors";
  let description = [{
    For every function marked `ckpt.differentiate` (or named by the
    `function` option) that returns one scalar loss (`f32`/`f64` or a 0-d
    float tensor), generates `<name>_grad` with the same arguments,
    returning the loss followed by the gradient with respect to every
    floating-point tensor argument, in argument order. The forward ops carry
    `ckpt.phase = #ckpt.phase<forward>` and the adjoint ops
    `#ckpt.phase<backward>`, which the memory analysis and the remat pass
    read. Adjoints of values with several uses are summed.

    Named linalg ops are generalized, aggregates (softmax) decomposed and
    elementwise arith/math on tensors turned into linalg.generic first; then
    one rule differentiates every `linalg.generic` whose inputs are read
    through projected permutations: the adjoint of input `x` is a generic over
    the same iteration space, parallel in `x`'s dimensions and reducing the
    others, whose payload is the forward payload followed by its
    forward-mode derivative with respect to `x`, times the output's adjoint.
    This covers elementwise ops (add, sub, mul, div, neg, max/min, select,
    exp, log, tanh, erf, sqrt, rsqrt, casts), additive and max/min
    reductions, transposes, broadcasts, matmul and batch matmul with any
    operand layout. Reshapes, slices and casts have their own rules. Any
    other op is a located error naming it.

    Example:

    ```mlir
    func.func @loss(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<f32>
        attributes {ckpt.differentiate} { ... }
    // becomes, next to @loss:
    func.func @loss_grad(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>)
        -> (tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>) { ... }
    ```
  }];
  let options = [
    Option<"functionName", "function", "std::string", /*default=*/"\"\"",
           "Function to differentiate (default: those marked "
           "ckpt.differentiate)">,
    Option<"suffix", "suffix", "std::string", /*default=*/"\"_grad\"",
           "Suffix of the generated function's name">,
  ];
  let dependentDialects = ["mlir::ckpt::CkptDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
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

def GemmToCublasPass : Pass<"ckpt-gemm-to-cublas", "mlir::ModuleOp"> {
  let summary = "Turn matmul-like linalg ops on memrefs into cuBLAS calls";
  let description = [{
    Replaces every linalg op on memrefs that is a plain contraction
    (`linalg.matmul`, `linalg.batch_matmul`, or a generic with the same
    multiply-add body, including a transposed A or B operand) by a call to
    a GEMM of the ckpt CUDA runtime (`libckpt_cuda_runtime`), which runs
    cuBLAS: `C += op(A) op(B)`. Each operand is cast to a fully dynamic
    strided memref; the callee is declared with `llvm.emit_c_interface`, so
    after lowering it receives memref descriptors.

    Every generic on memrefs is first simplified: its payload folded and
    cleaned of dead ops, the inputs it does not read dropped. That turns
    ckpt-autodiff's matmul gradients (which also take the forward's operands
    and compute `out + (1.0 * a) * b`) into plain contractions.

    Matched: one batch dimension at most (leading in every operand), one M,
    N and K dimension, C indexed (batch, m, n) or (batch, n, m) (then the
    inputs are passed the other way round), unit innermost stride,
    element types f32 x f32 -> f32 (`ckpt_cuda_gemm_f32`, or `_tf32` with
    `allow-tf32`), bf16 x bf16 -> f32 (`_bf16_f32`) and bf16 x bf16 -> bf16
    (`_bf16`); batched variants are `ckpt_cuda_batch_gemm_*`. Anything else
    (a fused elementwise prologue, other types, several K dimensions) is
    left for the code generator.

    Example:

    ```mlir
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    // becomes
    %0 = memref.cast %a : memref<64x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    call @ckpt_cuda_gemm_f32(%0, %1, %2, %c0_i32, %c0_i32) : (...) -> ()
    ```
  }];
  let options = [
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"false",
           "Run f32 GEMMs with TF32 tensor-core math">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def DeviceAllocationsPass : Pass<"ckpt-device-allocations"> {
  let summary = "Turn host buffer allocations into GPU allocations";
  let description = [{
    Replaces `memref.alloc` by `gpu.alloc` and `memref.dealloc` by
    `gpu.dealloc`, so that every buffer of the program lives in memory the
    GPU reaches and the ckpt CUDA runtime counts the device bytes. Run it
    after buffer deallocation placement (deallocation cannot analyze GPU
    kernels) and before kernels are formed.

    With `host-shared` (the default), buffers that host code touches (the
    function's results, which the caller reads; host loads and stores,
    printing, calls other than the cuBLAS GEMMs; any use the pass does not
    know) are managed memory (`gpu.alloc host_shared`); every other buffer
    (those only kernels, copies and GEMMs touch) is device memory. Without
    it, every buffer is device memory. With `results-on-device`, returning a
    buffer does not make it host-touched: ckpt-compile's glue copies every
    result into the caller's buffer with the runtime (a device copy), so
    the kernels that write gradients need not fault on fresh managed
    pages. Device memory is allocated
    asynchronously, followed by a wait. Managed memory only kernels touch
    would be correct but slow: on an H200 each kernel's first touch of a
    fresh managed buffer page-faults, which made an 8-layer GPT-style step
    3.9x slower (350 ms against 90 ms with device buffers).
    Frees are always synchronous (`gpu.dealloc async` + `gpu.wait`), so a
    buffer is released where deallocation placed its free.

    Stack allocations (`memref.alloca`, small host scalars) stay on the
    host. A global memref other than a scalar (a dense constant tensor) is
    reported as an error: kernels cannot read host globals.

    Example:

    ```mlir
    %b = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
    // becomes
    %b = gpu.alloc host_shared () : memref<64xf32>
    %0 = gpu.wait async
    %1 = gpu.dealloc async [%0] %b : memref<64xf32>
    gpu.wait [%1]
    ```
  }];
  let options = [
    Option<"hostShared", "host-shared", "bool", /*default=*/"true",
           "Allocate managed memory that host code can read as well">,
    Option<"resultsOnDevice", "results-on-device", "bool", /*default=*/"false",
           "Keep the function's results in device memory (with host-shared): "
           "for callers that copy them out with the runtime, as "
           "ckpt-compile's glue does">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def MergeGpuModulesPass : Pass<"ckpt-merge-gpu-modules", "mlir::ModuleOp"> {
  let summary = "Move every outlined kernel into one gpu.module";
  let description = [{
    Kernel outlining puts each kernel into a `gpu.module` of its own, and
    each module becomes its own cubin: one `ptxas` run and one libdevice
    link per kernel at compile time, one module load per kernel at run time.
    This pass moves the contents of every `gpu.module` of the top-level
    module into the first one (renaming symbols that collide: outlined
    kernels of one function all have the same name) and points each
    `gpu.launch_func` at the kernel's new place, so the program compiles to
    a single cubin. Modules that carry target attributes or differing
    attributes are left alone.

    Example:

    ```mlir
    gpu.module @f_kernel { gpu.func @f_kernel(...) kernel { ... } }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(...) kernel { ... } }
    gpu.launch_func @f_kernel_0::@f_kernel ...
    // becomes
    gpu.module @f_kernel {
      gpu.func @f_kernel(...) kernel { ... }
      gpu.func @f_kernel_0(...) kernel { ... }
    }
    gpu.launch_func @f_kernel::@f_kernel_0 ...
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def MapLinalgToGpuPass : Pass<"ckpt-map-linalg-to-gpu"> {
  let summary = "Map linalg ops on memrefs to GPU blocks and threads";
  let description = [{
    Rewrites every linalg op on memrefs (and every `memref.copy`) into a
    nest of two `scf.parallel` loops mapped to GPU blocks and threads, which
    `convert-parallel-loops-to-gpu` turns into one `gpu.launch` each.

    - Ops without reduction dimensions (elementwise, fill, copy,
      transpose): one thread per output element. The parallel iteration
      space is linearized with the last dimension fastest, so consecutive
      threads of a warp touch consecutive elements (coalesced accesses for
      row-major operands); `threads-per-block` threads per block.
    - Reductions with one output whose body combines the output with one
      associative op (add, mul, max, min, or, and, xor on floats or
      integers) and at least `block-reduction-min-size` reduced elements:
      one block per output element; its threads stride through the reduced
      elements (consecutive threads read consecutive elements), accumulate
      privately and combine with a block-wide reduction (`gpu.all_reduce`).
    - Other ops with reductions (contractions left by ckpt-gemm-to-cublas,
      small reductions, several outputs): one thread per output element,
      reducing sequentially.

    With `report=FILE` the pass writes an estimate of every kernel (see
    `benchmarks/gpu/kernel_report.py`): the cost model's roofline time, the
    fraction of `resident-threads` the launch fills, the fraction of each
    32-byte sector used (a thread-per-output reduction along an operand's
    innermost dimension uses one element per sector) and the efficiency
    (roofline over estimated time), so that naive kernels are visible.

    Example:

    ```mlir
    linalg.generic {... iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<64x1024xf32>) outs(%sum : memref<64xf32>) {...}
    // becomes
    scf.parallel (%b) = (%c0) to (%c64) step (%c1) {
      %partial = scf.parallel (%t) = (%c0) to (%c256) step (%c1)
          init (%zero) -> f32 { ... scf.for %k = %t to %c1024 step %c256 ... }
          {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
      ...
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```
  }];
  let options = [
    Option<"threadsPerBlock", "threads-per-block", "unsigned",
           /*default=*/"256", "Threads per block (a multiple of 32, at most "
           "1024)">,
    Option<"blockReductionMinSize", "block-reduction-min-size", "unsigned",
           /*default=*/"32", "Smallest reduction size given a whole block">,
    Option<"report", "report", "std::string", /*default=*/"",
           "Write a JSON estimate of every kernel here: roofline time on "
           "report-target, the fraction of the GPU's threads the launch "
           "fills and of each memory sector it uses, and the resulting "
           "efficiency ('-' for stdout)">,
    Option<"reportTarget", "report-target", "std::string",
           /*default=*/"\"h100-sxm\"",
           "Device target (name or JSON file) of the kernel report">,
    Option<"residentThreads", "resident-threads", "int64_t",
           /*default=*/"270336",
           "Threads the GPU runs at once, for the report (H100/H200: 132 "
           "SMs x 2048)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::gpu::GPUDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::arith::ArithDialect"];
}

def RematPass : Pass<"ckpt-remat", "mlir::ModuleOp"> {
  let summary = "Recompute activations to bring the peak under a budget";
  let description = [{
    For every function with a body (or those named by `functions`), lowers
    the peak bytes the memory analysis forecasts to the budget by inserting
    `ckpt.recompute` regions. Run it on the IR as it will be bufferized
    (after `ckpt-tensor-prep`).

    Planner solvers (`auto`, the default, `greedy`, `chain-dp`, `ilp`,
    `uniform:K`, `none`) plan on the function's buffer graph: a node per
    group of top-level ops that bufferization ties together (an allocation,
    the ops writing into it in place, views of it; cycles through in-place
    updates such as `x - mean(x)` merged), its bytes the allocations, its
    cost the estimated time on `target`, arguments as constant bytes. Its
    baseline peak is the memory analysis' peak when allocations sit at the
    ops that fill them (`graph=FILE` writes it for `ckpt-plan`). The
    schedule becomes recompute regions: every later computation of a node
    clones the node's ops that its readers need, placed before the first op
    of the first reader's node, and every reader reads the computation the
    schedule made last before it (so chains of recomputations from an
    earlier checkpoint come out as chains of regions). The rewritten
    function is analyzed again; if the forecast exceeds the budget, the plan
    is redone aiming lower (up to three plans), and what is left is handed to
    greedy-peak. `uniform:K` and `none` are taken as they are (an unmet
    budget is an error). `auto` runs chain-dp on training chains, the ILP
    (CBC, `time-limit` seconds) on graphs up to 300 nodes, greedy always,
    and keeps the cheapest plan.

    The `greedy-peak` solver (in the spirit of XLA's rematerialization) works
    on the IR: it repeatedly looks at the program point where memory peaks,
    takes the buffers kept alive across it, and for the most profitable one
    (bytes freed at the peak per FLOP of recomputation) clones the ops that
    computed it into a `ckpt.recompute` region right before its first use
    after the peak, rewiring those uses, so that the original dies early.
    Each step is kept only if it lowers the re-analyzed peak, or keeps it and
    lowers the number of program points at the peak (so that plateaus of
    equal peaks are worked down one point at a time): of up to 12 candidates
    per step, in score order, the first that lowers the peak is kept, else
    the first that narrows the plateau.

    Either way the analysis is run again on the rewritten IR, so the
    reported peak is the forecast of what will be allocated. Only ops free
    of memory effects whose regions are at most a linalg payload are cloned
    (no side effects are repeated; `ckpt.random_uniform` is pure and
    recomputes bit-exactly).

    Before any solver runs, every user `ckpt.checkpoint` is expanded with the semantics of
    `torch.utils.checkpoint` (also without a budget): only its inputs are
    kept; its body is inlined for the forward uses, and the backward uses of
    its results (ops marked backward or depending on a `ckpt.tangent`
    argument; without markers, every use after the first) get a
    `ckpt.recompute` clone of the whole body right before the first of them.

    The budget uses the planner's grammar: a fraction of the baseline peak
    (`0.7`, `70%`) or bytes (`123456`, `512MiB`, `2GB`); or `min`, the
    smallest peak the solvers find (planned at the smallest peak greedy's
    bisection finds, then lowered by greedy-peak while it can); or `auto`,
    the knee of the memory/recompute trade-off: greedy plans at 1, 0.95, ...,
    0.05 of the baseline and at its smallest peak, and the knee is the point
    where memory saved minus extra cost (each scaled to [0, 1] over the
    curve) is largest. A budget below the smallest peak found is an error
    at the function that states that minimum; a malformed budget is an
    error listing the accepted forms.

    `policy` sets `ckpt.policy` by rule on ops without one:
    `save-matmuls` (contractions and convolutions must_save, as JAX's
    `dots_saveable`), `recompute-elementwise` (prefer_recompute),
    `save-names:a,b` (ops with those `ckpt.name`s must_save), combined with
    `+`; the rules are taken off again at the end.

    The report (`report`, JSON or `report-format=table`) gives per function
    the solver, budget and how it was set, the peaks before and after,
    every recomputation (value, where it is computed, where recomputed,
    bytes, FLOPs), the saved residuals (value, type, bytes and why kept),
    extra FLOPs and estimated time on `target`, the planner model's view and
    the solve time.

    `ckpt.policy` on the op computing a value steers the solver: `must_save`
    values are never recomputed, `must_recompute`/`prefer_recompute` ones
    are tried first and `prefer_save` ones last, and a `must_recompute`
    value kept across the peak is recomputed (once) even when the budget is
    met; if it cannot be, that is an error at the op.

    Example:

    ```
    ckpt-opt step.mlir --ckpt-tensor-prep \
      --ckpt-remat="budget=60% solver=auto report=remat.json" \
      --ckpt-cpu-pipeline
    ```
  }];
  let options = [
    Option<"budget", "budget", "std::string", /*default=*/"\"\"",
           "Memory budget: a fraction of the baseline peak or bytes">,
    Option<"solver", "solver", "std::string", /*default=*/"\"auto\"",
           "Solver: auto, greedy, chain-dp, ilp, uniform:K, none (planner "
           "solvers on the buffer graph) or greedy-peak (on the IR)">,
    Option<"policy", "policy", "std::string", /*default=*/"\"\"",
           "Named policies: save-matmuls, recompute-elementwise, "
           "save-names:NAME[,NAME...], combined with '+'">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"10.0",
           "Seconds the ILP solver may take (solver=ilp or auto)">,
    Option<"reportFile", "report", "std::string", /*default=*/"\"\"",
           "File to write the remat report to ('-' for standard output)">,
    Option<"reportFormat", "report-format", "std::string",
           /*default=*/"\"json\"",
           "Report format: json (extends ckpt-report's schema) or table">,
    Option<"target", "target", "std::string", /*default=*/"\"h100-sxm\"",
           "Device target for the costs and time estimates">,
    Option<"graphFile", "graph", "std::string", /*default=*/"\"\"",
           "File to write the planner problem of each function to, as "
           "ckpt-plan's graph JSON (the function name is appended when "
           "there are several)">,
    ListOption<"functionNames", "functions", "std::string",
               "Functions to rematerialize (default: every function with a "
               "body)">,
  ];
  let dependentDialects = ["mlir::ckpt::CkptDialect"];
}

#endif // CKPT_TRANSFORMS_PASSES_TD
