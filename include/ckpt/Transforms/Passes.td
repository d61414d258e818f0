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

def RaiseAttentionPass : Pass<"ckpt-raise-attention"> {
  let summary = "Raise unfused scaled dot-product attention to ckpt.attention";
  let description = [{
    Rewrites `batch_matmul(softmax(mask(scale * batch_matmul(Q, Kt))), V)`
    into one `ckpt.attention` on `Q`, `transpose(Kt)` and `V`, whose lowering
    keeps nothing with two sequence dimensions. Between the score matmul and
    the softmax (over the last dimension) an elementwise `linalg.generic` of
    the scores may multiply or divide by positive constants and mask the keys
    after the query (`select(j > i, c, s)` or `select(j <= i, s, c)` on
    `linalg.index`, with `c` at most -1e9 or -inf): that mask becomes
    `causal`. Both matmuls need zero-filled inits and the default layout; the
    scores, masked scores and probabilities must have no other use (in a
    program whose backward pass reads the probabilities, raising would save
    nothing, and the pattern leaves it alone). f32 and f64.

    `ckpt-autodiff` applies the same rewrite before differentiating, so the
    gradient is `ckpt.attention_grad` (see its `raise-attention` option).

    Example:

    ```mlir
    %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x16xf32>, tensor<4x16x64xf32>)
                             outs(%z : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    %m = linalg.generic ... ins(%s) { s * 0.25, masked to -1e9 where j > i }
    %p = linalg.softmax dimension(2) ins(%m : ...) outs(%e : ...) -> tensor<4x64x64xf32>
    %o = linalg.batch_matmul ins(%p, %v : ...) outs(%z2 : ...) -> tensor<4x64x16xf32>
    // becomes
    %k = linalg.transpose ins(%kt : tensor<4x16x64xf32>) outs(...) permutation = [0, 2, 1]
    %o, %lse = ckpt.attention causal scale(0.25) ins(%q, %k, %v : ...) outs(...) -> ...
    ```
  }];
  let dependentDialects = ["mlir::ckpt::CkptDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
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
    `gpu.module`) is still an error. With `allow-openmp`, the ops of the
    OpenMP dialect (`omp.parallel`, `omp.wsloop`, ...: the translation to
    LLVM IR lowers them to libomp calls) are accepted.

    Example error:

    ```
    error: 'linalg.softmax' was not lowered to the LLVM dialect
    ```
  }];
  let options = [
    Option<"allowGpuBinary", "allow-gpu-binary", "bool", /*default=*/"false",
           "Also accept gpu.binary and gpu.launch_func (host side of the GPU "
           "pipeline)">,
    Option<"allowOpenMP", "allow-openmp", "bool", /*default=*/"false",
           "Also accept OpenMP-dialect ops (ckpt-cpu-pipeline with num-threads above 1)">,
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

    A producer is fused into its only reader, so no computation is
    duplicated, except one cheap to repeat in each of its readers (none a
    contraction): a single widening cast of a tensor of its own shape (an
    f32 activation extended to f64 for BatchNorm's statistics) or a single
    addition, subtraction or multiplication of such a tensor by a broadcast
    one (an activation centered on its per-channel mean). Kept apart, it is
    a tensor as large as the activation (or wider) alive beside it between
    its readers; repeated, each reader reads the activation. And a generic
    that reads each element of a tensor of its own type at its own position
    (the reversal of a 1x1 kernel, which importers write for every
    convolution's input gradient) is replaced by that tensor.

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
    Option<"keepConvolutions", "keep-convolutions", "bool", /*default=*/"false",
           "Leave the 2-D convolutions that ckpt-convolution-to-gemm rewrites "
           "named (generalized, they would no longer be recognized)">,
  ];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::affine::AffineDialect",
    "mlir::tensor::TensorDialect", "mlir::arith::ArithDialect",
  ];
}

def WidenAccumulatorsPass : Pass<"ckpt-widen-accumulators"> {
  let summary = "Accumulate reductions into bf16/f16 tensors in f32, and long "
                "sums into f32 tensors in f64, rounding once";
  let description = [{
    A `linalg.generic` that reduces into a bf16 or f16 tensor accumulates in
    that type: every partial sum is rounded to 8 (bf16) or 11 (f16) bits, so
    a long dot product or a bias gradient summed over a batch loses most of
    its digits. PyTorch (autocast), cuBLAS and oneDNN multiply narrow inputs
    exactly and accumulate in f32, rounding the result once; the linalg IR
    that importers produce for a `torch.autocast` step (torch-mlir) does
    not.

    This pass rewrites every `linalg.generic` on tensors with a reduction
    iterator and a bf16/f16 output that its payload reads (an accumulator)
    to accumulate into an f32 tensor: the output's initial value is widened
    (a fill becomes an f32 fill of the same value, anything else an
    elementwise `arith.extf`), the payload computes everything that depends
    on the accumulator in f32 (products read only by the accumulation too,
    so narrow inputs are multiplied exactly, as upstream's mixed-precision
    named ops do), and an elementwise `arith.truncf` after the op rounds the
    result to the narrow type once. The op's `ckpt.*` annotations go to both
    the accumulation and the rounding. A payload whose accumulation goes
    through an op with no f32 form here (anything but float arithmetic,
    comparisons, selects and casts) is left as it is.

    f32 has the same problem at a larger scale: a reduction loop adds its
    elements one after the other, so the rounding error of a sum of n
    elements grows with n, and where the terms cancel (the gradient of a
    convolution followed by BatchNorm sums to nearly zero per channel) the
    result keeps few correct digits. PyTorch sums f32 pairwise, in blocks;
    summed in a loop, a RegNet-style network's first-step gradients (batch
    16 at 64x64, BatchNorm statistics over up to 16,384 positions, grouped
    convolution weight gradients) were 8e-3 from float64 where eager float32
    was 4e-4, and 2.5e-6 with this rewrite. So a reduction into f32 whose
    reduction loops have `f32-min-extent` or more iterations per result
    element (a dynamic trip count counts as many) accumulates in f64 the
    same way, when its accumulation sums (maxima and minima round nothing
    and stay f32) and it is not a matrix product (a contraction with M and
    N dimensions: those go to the GEMM libraries, which sum in blocks) nor
    a sum of products with an indicator (an embedding gradient's one-hot
    product, which `ckpt-one-hot-products-to-scatter` turns into row
    additions, as PyTorch's index_add); 0 leaves f32 reductions as they
    are. f64 programs are unchanged.

    `ckpt-tensor-prep` runs it after generalization and fusion, before the
    memory analysis, so the wide accumulator tensors are in the forecast and
    in every remat plan.

    Example:

    ```mlir
    %s = linalg.generic {iterator_types = ["parallel", "reduction"], ...}
        ins(%x : tensor<4x8xbf16>) outs(%zero : tensor<4xbf16>) {
      ^bb0(%in: bf16, %acc: bf16):
        %0 = arith.addf %acc, %in : bf16
        linalg.yield %0 : bf16
    } -> tensor<4xbf16>
    // becomes a reduction into an f32 fill (arith.extf %in, arith.addf on
    // f32) and a linalg.generic rounding its result to tensor<4xbf16>
    ```
  }];
  let options = [
    Option<"f32MinExtent", "f32-min-extent", "int64_t", /*default=*/"256",
           "Reductions into f32 over at least this many elements per result "
           "element accumulate in f64 (0: f32 reductions are left as they "
           "are)">,
  ];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect",
  ];
}

def WidenGemmOperandsPass : Pass<"ckpt-widen-gemm-operands"> {
  let summary = "Narrow matrix products read f32 copies of their operands, "
                "for a BLAS";
  let description = [{
    After `ckpt-widen-accumulators`, a bf16 or f16 matrix product (an
    autocast step's matmuls and their gradients) is a `linalg.generic`
    that extends both narrow inputs to f32 in its payload, multiplies them
    exactly and accumulates into an f32 tensor. The BLAS libraries of the CPU
    pipeline (OpenBLAS, oneDNN's `dnnl_sgemm`) have no such GEMM, so
    `ckpt-gemm-to-blas` leaves it to the loops, which are many times slower
    than the f32 GEMM.

    This pass rewrites every such contraction that `ckpt-gemm-to-blas` could
    call as a GEMM (at most one batch dimension, one each of M, N and K,
    static shapes, operands indexed by loop dimensions) to read f32 copies
    of its two inputs: each is an elementwise `arith.extf` into a new f32
    tensor, and the product multiplies and accumulates those in f32. The
    values computed are the same (the product of two extended narrow values
    is exact in f32), up to the order in which the GEMM sums. The copies
    take the contraction's phase; the contraction keeps its annotations.

    `ckpt-cpu-pipeline` runs it in the tensor preparation when
    `gemm=blas`, before the memory analysis: the copies are tensors of the
    program, in the forecast and in every remat plan. Other ops, and f32
    and f64 programs, are unchanged.

    Example:

    ```mlir
    %c = linalg.generic {...} ins(%a, %b : tensor<8x32xbf16>, tensor<32x16xbf16>)
        outs(%acc : tensor<8x16xf32>) {
      ^bb0(%x: bf16, %y: bf16, %z: f32):
        %0 = arith.extf %x : bf16 to f32
        %1 = arith.extf %y : bf16 to f32
        %2 = arith.mulf %0, %1 : f32
        %3 = arith.addf %z, %2 : f32
        linalg.yield %3 : f32
    } -> tensor<8x16xf32>
    // becomes two linalg.generic copies (arith.extf) into tensor<8x32xf32>
    // and tensor<32x16xf32>, and the same contraction on them (arith.mulf,
    // arith.addf), which ckpt-gemm-to-blas calls as an f32 GEMM
    ```
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect",
  ];
}

def OneHotProductsToScatterPass : Pass<"ckpt-one-hot-products-to-scatter"> {
  let summary = "Contractions of one-hot matrices become row scatters";
  let description = [{
    An embedding's gradient, as `ckpt.torch` exports it (torch-mlir has no
    linalg form of the scatter-add), is the transposed one-hot matrix of the
    tokens times the rows of the output gradient; after fusion it is one
    `linalg.generic` that compares every token with every row index:
    `out[v, h] += uitofp(tokens[t] == iota[v]) * rows[t, h]`, T x V x H
    multiply-adds of which T x H are not by zero. With a real vocabulary
    (GPT-2: 50257 rows) that is most of a training step's time on the CPU.

    This pass rewrites such a contraction (the tokens read along the
    reduction dimension t only, compared with the output's row index v (an
    iota input read along v only, or the loop index once the fusion has
    folded the iota in), a matrix read along t and the output's column h;
    that payload, operands in either order, the comparison possibly and-ed
    with a condition on the token alone such as an embedding's padding index
    `token != pad`; static shapes) into an `scf.for` over
    the tokens that adds row t of the matrix into row `tokens[t]` of the
    accumulator: `tensor.extract_slice`, an elementwise `linalg.generic` and
    `tensor.insert_slice` of the loop-carried tensor, which bufferize in
    place (no allocation; the memory analysis models the loop). Each
    element gets the same additions in the same order as before, less the
    additions of zero products. A token outside [0, V) matches no row; its
    row is added times 0.0 to row 0 (the one-hot product adds it times 0.0
    to every row).

    `ckpt-cpu-pipeline` runs it in the tensor preparation, after the
    fusion; the GPU pipeline does not (a loop over the tokens would launch
    a kernel per token).
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
    "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
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

def ReadOnlyArgumentsPass : Pass<"ckpt-read-only-arguments", "mlir::ModuleOp"> {
  let summary = "Never write into the caller's tensors: mark the tensor "
                "arguments of public functions read-only for bufferization";
  let description = [{
    One-shot bufferization takes a function's tensor arguments as writable
    by default: an op that writes its result into an argument (a matmul
    accumulating into a bias passed in) then overwrites the caller's buffer
    in place. A compiled training step is called on the caller's live
    tensors (`ckpt.aot`, `ckpt.torch.TrainStep` pass the model's parameters
    without a copy), so that would corrupt them, and every later call would
    start from different inputs.

    This pass sets `bufferization.writable = false` on every tensor argument
    of every public function with a body (an argument that already has the
    attribute keeps it). Bufferization then copies such an argument before
    writing into it, and since `ckpt-tensor-prep` runs the pass first, the
    memory analysis counts that copy. Private functions are inlined by the
    tensor preparation and need nothing.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def MergeRepeatedReductionsPass : Pass<"ckpt-merge-repeated-reductions"> {
  let summary = "Compute a reduction repeated on the same inputs once";
  let description = [{
    Decompositions compute some reductions twice: BatchNorm's variance
    sums the input for its mean, and the mean PyTorch saves for the
    backward is a second sum of the same input. Once
    `ckpt-widen-accumulators` has made both accumulate in f64 they are the
    same `linalg.generic`, but into initial values filled separately (a
    fill and a generic yielding the constant, kept apart on purpose by
    `ckpt-privatize-inits`), so CSE does not see it, and each BatchNorm
    reads its input three times instead of twice.

    This pass replaces a `linalg.generic` on tensors with a reduction
    iterator by an earlier one in the same block when both have the same
    inputs, attributes and payload and their initial values are the same
    value or fills of the same type with the same value (`linalg.fill` or
    its generic form, one SSA value or equal constants); fills left unread
    are erased. Only reductions whose results have at most 1/8 of their
    largest input's elements are merged, so that holding the first result
    until the second one's readers run costs little memory beside reading
    the input again. Results are the same bits.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def FoldPoolingPadsPass : Pass<"ckpt-fold-pooling-pads"> {
  let summary = "Read max and min pools' windows through bounds checks "
                "instead of a padded copy";
  let description = [{
    A max or min pool with padding (or `ceil_mode`) is imported as a
    `tensor.pad` of its input with -inf (+inf) and a `linalg.generic`
    reducing windows of the padded copy; PyTorch's max-pool indices, and
    their gradient, read the padded copy again through `tensor.extract`.
    The copy is larger than the pool's input, and in the backward, where
    the indices are recomputed for the gradient, it is alive beside that
    input and the gradient of the whole stem: on small CNNs the largest
    value of the step.

    A `tensor.pad` of static sizes whose padding value is a constant
    infinity, read only by `linalg.generic` ops on tensors (as inputs, or by
    `tensor.extract` in their payloads), is folded into them: each read
    computes the position in the padded tensor (an input's indexing map
    applied to the loop indices), subtracts the low padding, and reads the
    source there when the position lies inside it, the padding value
    elsewhere (a clamped `tensor.extract` and a `select`). The pad is then
    erased. Results are the same bits: every element read is the element
    the copy held. Pads with other values (the zeros of convolutions,
    depthwise included, whose windows a bounds check would slow) and pads
    with other readers are left alone. `ckpt-tensor-prep` runs it after
    the generalization, which makes the pools generics.

    Example:

    ```mlir
    %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] { ... -inf ... }
    %m = linalg.generic {... (n, c, h, w, i, j) -> (n, c, 2*h + i, 2*w + j) ...}
           ins(%p, %window : ...) outs(%init : ...) { maximumf }
    // becomes
    %m = linalg.generic {...} ins(%window : ...) outs(%init : ...) {
      // row = 2*h + i - 1, col = 2*w + j - 1; inside = 0 <= row < H && ...
      %v = tensor.extract %x[%n, %c, %row_clamped, %col_clamped]
      %in = arith.select %inside, %v, %neg_inf
      ... maximumf
    }
    ```
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"
  ];
}

def ShrinkSlicedConvolutionsPass : Pass<"ckpt-shrink-sliced-convolutions"> {
  let summary = "Compute only the output window of a 2-D convolution that "
                "its one reader slices out";
  let description = [{
    A convolution's output positions are independent of each other, so a
    convolution read only through a `tensor.extract_slice` that keeps every
    image and filter and a window of its spatial positions starting at the
    origin (offsets 0, unit strides) is the same convolution with the
    smaller output: its initial value is sliced instead (a fill is made
    anew at the smaller shape), and the input stays as it is (a named
    convolution may read an input larger than its window needs). A chain of
    slices shrinks the convolution slice by slice.

    PyTorch's weight gradient of a strided convolution, as ckpt.torch
    decomposes it (a convolution of the input with the output gradient as
    the filter, dilated by the stride), computes every kernel position the
    padded input allows and then keeps the kernel's: a 3x3 filter of
    stride 2 computes 4x4 positions, a 1x1 of stride 2 2x2. After this pass
    only the kept positions are computed. It runs in `ckpt-tensor-prep`
    before the fusion, so the memory analysis sees the smaller tensors.

    `linalg.conv_2d_nchw_fchw`, `linalg.conv_2d_nhwc_hwcf` and
    `linalg.conv_2d_ngchw_gfchw` on tensors are rewritten; the new
    convolution keeps the old one's attributes (ckpt annotations included).
    A grouped convolution's result is read through a `tensor.collapse_shape`
    that merges groups and filters (a grouped or depthwise weight gradient):
    a slice that keeps the merged dimensions whole is moved before the
    collapse, onto the convolution.

    Example:

    ```mlir
    %g = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
           ins(%x, %dy : tensor<8x4x9x9xf32>, tensor<16x4x4x4xf32>)
           outs(%z : tensor<8x16x3x3xf32>) -> tensor<8x16x3x3xf32>
    %w = tensor.extract_slice %g[0, 0, 0, 0] [8, 16, 2, 2] [1, 1, 1, 1]
    // becomes
    %w = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
           ins(%x, %dy : tensor<8x4x9x9xf32>, tensor<16x4x4x4xf32>)
           outs(%z2 : tensor<8x16x2x2xf32>) -> tensor<8x16x2x2xf32>
    ```
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
  ];
}

def ConvolutionToGemmPass : Pass<"ckpt-convolution-to-gemm"> {
  let summary = "Rewrite 2-D convolutions on tensors as an im2col copy and "
                "one matrix multiplication";
  let description = [{
    A `linalg.conv_2d_nchw_fchw` on f32 or f64 tensors with static shapes
    becomes the GEMM that a BLAS (or cuBLAS) computes at its speed instead
    of seven nested scalar loops (and NHWC/HWCF ones likewise, without the
    transposes):

    - the input patches, `col[c, kh, kw, n, oh, ow] = input[n, c, oh *
      stride + kh * dilation, ow * stride + kw * dilation]`, copied by a
      `linalg.generic` into a tensor of shape (C*KH*KW) x (N*OH*OW);
    - `linalg.matmul` of the filters, (F) x (C*KH*KW), by the patches,
      accumulating into the convolution's initial value laid out as
      (F) x (N*OH*OW) (a transpose of it; a fill is filled anew);
    - a `linalg.transpose` back to (N, F, OH, OW) (a reshape when N is 1).

    A patch matrix larger than `patch-bytes` is built and multiplied a few
    images at a time: an `scf.for` over chunks of the batch (the most whole
    images whose patches fit, a divisor of N, at least one) copies the
    chunk's patches and multiplies them into its columns (NHWC: rows) of
    the product, in place. The patches of one chunk stay in the cache
    between their copy and the multiplication, and the step holds one
    chunk's patches instead of the whole batch's. Where chunks of images
    would make a narrow product (chunk*OH*OW columns: a weight gradient's
    output window is the filter's 3x3, its kernel the output gradient's
    grid) and chunks of input channels leave a wider one, an NCHW
    convolution is chunked over its input channels instead: each chunk's
    patches, (chunk*KH*KW) x (N*OH*OW), times the filter columns of those
    channels are added into the whole product.

    The patches built at once are also limited to the larger of the
    convolution's input and output (when above 64 KiB): a chunk of them,
    alive beside both, at most doubles what the convolution holds; on a
    small network the whole batch's patches (nine times a 3x3
    convolution's input) would otherwise be the step's largest tensor.

    These forms avoid copies of activation-sized tensors (and keep the
    products wide enough for a BLAS):

    - an NCHW convolution of several images with at least 256 output
      positions each is multiplied one image at a time into that image's
      block of the initial value as it is laid out, (F) x (OH*OW): no
      transpose of the initial value (the bias) or of the result;
    - an input or filters that are `linalg.transpose`s swapping the first
      two dimensions (a weight gradient as importers write it: the
      activations and the output gradient with images and channels
      swapped) are read where they are: the patches from the transpose's
      source, and, where the filters' window has at least 256 taps (the
      output gradient's grid), one channel (image) at a time whose filter
      columns are a block of the source, (F) x (KH*KW). The transposes are
      then left without users; and where the output's only reader swaps it
      back (into the filters' layout), the product, which is laid out that
      way, replaces the reader: no transpose is made at all. A swap is a
      `linalg.transpose` or the `linalg.generic` copy it generalizes to; an
      output of one position (a 1x1 convolution's weight gradient, whose
      kernel is the whole image) is multiplied one image at a time however
      small the grid;
    - a 1x1 convolution at stride 1 (NCHW, not transposed) multiplies each
      image as it is stored, (C) x (H*W), into its block of the output: no
      patches are copied; filters that are a swap of another tensor (a 1x1
      convolution's input gradient: the forward filters with their channel
      dimensions exchanged) are read transposed by the product
      (`linalg.matmul` with transposed indexing maps).

    It runs on tensors, before the memory analysis, so the patch tensor (of
    the whole batch or of one chunk), alive only between its copy and the
    multiplication, is counted in the forecast and in every plan; the remat
    pass may recompute it like any other value. The ops it
    creates take the convolution's `ckpt.phase`; the op producing the
    result takes its other annotations (name, policy). Grouped convolutions,
    other layouts and element types are left alone. `ckpt-cpu-pipeline`
    runs it with `gemm=blas` at the end of the tensor preparation, after
    `ckpt-generalize-and-fuse{keep-convolutions}`: run before the fusion,
    the patch copy would be fused back into the multiplication, which would
    be a convolution again.

    Example:

    ```mlir
    %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                                   strides = dense<1> : tensor<2xi64>}
           ins(%x, %w : tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>)
           outs(%init : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
    // becomes: %col = linalg.generic ... -> tensor<3x3x3x2x4x4xf32>
    //          linalg.matmul (4x27) x (27x32) -> tensor<4x32xf32>
    //          linalg.transpose (4x2x4x4) -> tensor<2x4x4x4xf32>
    ```
  }];
  let options = [
    Option<"patchBytes", "patch-bytes", "int64_t", /*default=*/"2097152",
           "Largest patch matrix built at once, in bytes: a larger one is "
           "built and multiplied in chunks of whole images">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
  ];
}

def CoarsenParallelLoopsPass : Pass<"ckpt-coarsen-parallel-loops"> {
  let summary = "Keep parallel only the loops worth a team of threads";
  let description = [{
    Runs on the `scf.parallel` loops `convert-linalg-to-parallel-loops`
    makes (one per op, over its parallel dimensions), before
    `convert-scf-to-openmp`, so that a thread team is started only where it
    pays and the innermost loops stay sequential for LLVM's vectorizer:

    - an outermost loop whose work (the operations its iterations execute,
      nested loops counted once per iteration) reaches `min-work` stays
      parallel over the fewest leading dimensions that make at least four
      blocks per thread; its other dimensions become an `scf.for` nest
      inside it;
    - every other loop without results (below `min-work`, nested in a
      parallel loop, or allocating, freeing or calling: the ckpt runtime's
      allocation ledger is not shared between threads) becomes an `scf.for`
      nest; with `num-threads=1`, all of them.

    Each iteration computes what it computed before, in the same order, so a
    build with threads gives the bits of one without. Loops with reductions
    (results) are left to `convert-scf-to-openmp`. `ckpt-cpu-pipeline`
    runs it with its `num-threads` option.

    Example (`num-threads=2`):

    ```mlir
    scf.parallel (%n, %c, %h, %w) = (%c0, %c0, %c0, %c0)
        to (%c64, %c64, %c16, %c16) step (%c1, %c1, %c1, %c1) { ... }
    // becomes: scf.parallel (%n) = (%c0) to (%c64) step (%c1) {
    //            scf.for %c ... { scf.for %h ... { scf.for %w ... { ... } } }
    //          }
    ```
  }];
  let options = [
    Option<"threads", "num-threads", "int64_t", /*default=*/"1",
           "Threads the parallel loops will run on">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"65536",
           "Fewest operations a loop must execute to stay parallel">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect"];
}

def InlineAllocaScopesPass : Pass<"ckpt-inline-alloca-scopes"> {
  let summary = "Inline the memref.alloca_scope ops that scope no allocation";
  let description = [{
    `convert-scf-to-openmp` wraps every parallel loop body in a
    `memref.alloca_scope`, which must stay one block; the bodies hold loops,
    which `convert-scf-to-control-flow` turns into blocks. A scope that holds
    no `memref.alloca`, at any depth, scopes nothing: it is inlined into its
    parent. Scopes with an alloca stay.
    `ckpt-cpu-pipeline` runs it after `convert-scf-to-openmp`.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def InterchangeWindowLoopsPass : Pass<"ckpt-interchange-window-loops"> {
  let summary = "Run a window op's (convolution, pooling) contiguous "
                "parallel loop innermost, so that LLVM vectorizes it";
  let description = [{
    A `linalg.generic` that reads a window (an input indexed by a sum of
    loop dimensions, as a depthwise or grouped convolution or a pooling
    generalized from its named op) iterates in the order of its definition:
    a depthwise convolution's loops are (n, oh, ow, c, kh, kw), so the
    innermost loop runs over the 3 kernel columns and the channels are
    walked one plane apart: LLVM vectorizes nothing. This pass moves one
    parallel loop innermost: the one whose dimension indexes the innermost
    (contiguous) dimension of the most operands, the longer one on a tie
    (a depthwise convolution's ow: the output's and the input's columns).
    The other loops keep their relative order, so every output element
    still sums its terms in the same order: the results are bit for bit
    those of the order it replaces.

    It runs in `ckpt-cpu-pipeline` on buffers, before the loops are made;
    it allocates nothing (the forecast is unchanged). Generics without a
    window input, or whose innermost loop is already the best, are left
    alone.

    Example:

    ```mlir
    // (n, oh, ow, c, kh, kw) -> in[n, c, oh + kh, ow + kw], w[c, kh, kw],
    //                           out[n, c, oh, ow]
    linalg.generic {iterator_types = ["parallel", "parallel", "parallel",
                                      "parallel", "reduction", "reduction"]}
    // becomes (n, oh, c, kh, kw, ow): the loop over ow innermost
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def HoistLoopAllocasPass : Pass<"ckpt-hoist-loop-allocas", "func::FuncOp"> {
  let summary = "Allocate the stack buffers of loop bodies once per thread";
  let description = [{
    A `memref.alloca` of static shape inside a loop body (`scf.for`,
    `scf.parallel`, `scf.while`, `omp.loop_nest`; `ckpt-lower-attention`'s
    rows of scores) would take new stack memory in every iteration: LLVM
    keeps allocas outside the entry block dynamic, so the stack grows with
    the trip count. Such an alloca moves to where it runs once per thread:
    the start of the enclosing `omp.parallel` region (each thread's own
    buffer), or, outside OpenMP, the function's entry block (the loops run
    sequentially there). Each iteration gets the same buffer instead of a
    fresh one; an alloca's contents are undefined until written and its
    uses stay inside the body, so no iteration can see another's values.
    Allocas of dynamic shape stay.
    `ckpt-cpu-pipeline` runs it after the parallel loops are formed (after
    `convert-scf-to-openmp` with threads) and before
    `ckpt-inline-alloca-scopes`, which then inlines the scopes the hoisted
    allocas leave empty.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def ForwardWindowsPass : Pass<"ckpt-forward-windows", "func::FuncOp"> {
  let summary = "Read backwards windows of contractions forwards, over a "
                "reversed copy of the other operand";
  let description = [{
    The input gradient of a convolution, as `ckpt-autodiff` writes it, is a
    `linalg.generic` reading the output gradient through a window that runs
    backwards over a reduction dimension: `(n, h - kh + 2, w - kw + 2, f)`
    with `kh` a reduction loop, the filter read at `(kh, kw, c, f)`. Valid
    linalg, but IREE 3.13's CPU backend fails to tile it ("inferred
    input/output operand ... has shape's dimension ... to be greater than or
    equal to"). This pass substitutes `K - 1 - kh` for such a reduction
    loop `kh` of extent `K` in every indexing map: the window then runs
    forwards (`h + kh - K + 3`), and each operand that indexes the loop
    plainly (the filter) is replaced by a copy reversed along those
    dimensions (a gather `linalg.generic`, kernel-sized). A loop qualifies
    when every map result that uses it is either the loop itself or has it
    with coefficient -1.

    The sums run in the reverse order along the flipped loops: the results
    can differ in their last bits from the original op's. `ckpt-compile
    --backend=iree-cpu` runs it on every build it compares (with and
    without remat), before the memory analysis, so the reversed copies are
    counted.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def OutlineLoopNestsPass : Pass<"ckpt-outline-loop-nests", "ModuleOp"> {
  let summary = "Outline each top-level loop nest of a function into a "
                "function of its own";
  let description = [{
    A training step lowered to loops is one function with a loop nest per
    op: thousands of loops for a real network. LLVM's loop passes
    (`indvars`, `loop-rotate`) take time that grows with the size of the
    function for every loop they visit, so a step of a few thousand nests
    spends minutes in them. Each op with regions and no results directly in
    a function's body (an `scf.for` or `scf.parallel` nest, an
    `omp.parallel` region, an alloca scope) is moved into a private
    function, `@<function>__nest<N>`, with internal linkage and LLVM's
    `noinline`, and called in its place; LLVM then optimizes each nest on
    its own, in time linear in the step. A function whose only work is one
    nest (an outlined one) stays as it is.

    The captured values (buffers, sizes, scalars) become the arguments;
    constants are cloned into the new function, so loop bounds and steps
    stay constants. A buffer argument whose memory no other argument reaches
    while either of them is written (the buffers the arguments view are
    distinct allocations, or an allocation and an argument of the step, or
    neither is written in the nest) is recorded in the function's
    `ckpt.noalias_pointers` (its allocated and aligned pointers, as positions
    in the LLVM signature); `ckpt-apply-noalias-pointers` marks them
    `llvm.noalias` after the conversion to the LLVM dialect, so that LLVM
    vectorizes loops over many buffers without runtime overlap checks and
    keeps reductions' accumulators in registers. The body of each OpenMP
    worksharing loop (`omp.loop_nest`) in a nest becomes a function of its
    own too, `@<function>__nest<N>_body<M>`, taking the loop's induction
    variables and the values it captures, with the noalias pointers the
    step function knows: the translation to LLVM IR outlines an
    `omp.parallel` region again and passes its buffers through a structure,
    which tells LLVM nothing about their aliasing (a two-thread im2col copy
    was vectorized with gathers). That function may be inlined: LLVM keeps
    noalias arguments as scoped alias metadata. Allocations and frees stay
    where they were (inside a nest they move with it): the memory the step
    allocates, and its peak, do not change.

    `ckpt-cpu-pipeline` runs it once the ops are loops.

    Example:

    ```mlir
    func.func @step(%a: memref<64xf32>) {
      scf.for %i = %c0 to %c64 step %c1 { ... %a ... }
      return
    }
    // becomes:
    func.func private @step__nest0(%a: memref<64xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["noinline"]} {
      %c0 = arith.constant 0 : index  // (and %c1, %c64)
      scf.for %i = %c0 to %c64 step %c1 { ... %a ... }
      return
    }
    func.func @step(%a: memref<64xf32>) {
      call @step__nest0(%a) : (memref<64xf32>) -> ()
      return
    }
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def ApproximateMathPass : Pass<"ckpt-approximate-math"> {
  let summary = "Compute f32 exp, log, log1p, expm1, tanh and erf with "
                "upstream MLIR's polynomial approximations";
  let description = [{
    The LLVM lowering turns `math.exp` and `math.log` into LLVM intrinsics
    and `math.erf`, `math.tanh`, `math.log1p`, `math.expm1` into libm calls;
    on the CPU both end as one scalar libm call per element, which keeps
    LLVM from vectorizing the loop around them (softmax, cross-entropy,
    GELU and their gradients). This pass rewrites those ops on f32 scalars
    and vectors into upstream MLIR's polynomial approximations (range
    reduction and a polynomial in `arith` ops and `math.fma`), which LLVM
    vectorizes. f64 ops stay libm calls; bf16 and f16 ops are computed in
    f32 by then (`math-extend-to-supported-types`).

    The results differ from libm's in the last bits (within a few units in
    the last place); the lowering is the same wherever an op appears, so
    a recomputed value still has the bits of the original.
    `ckpt-cpu-pipeline` runs it unless `libm-math` is set.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def BooleansAsBytesPass : Pass<"ckpt-booleans-as-bytes", "mlir::ModuleOp"> {
  let summary = "Load and store i1 values in memory as bytes (llvm.load/"
                "llvm.store of i8 with a truncation or zero extension)";
  let description = [{
    A memref of i1 keeps one element per byte. An `llvm.load` of an i1 from
    such a buffer is an access LLVM's loop vectorizer cannot widen into a
    vector load (an `<N x i1>` in memory is N bits, not N bytes): a loop
    reading a boolean mask per element (a saved comparison, a padding or
    window mask) was vectorized with one scalar byte load per lane, and the
    lanes assembled into a mask register. On the LLVM dialect this pass
    rewrites every scalar i1 load into a load of the byte and an
    `llvm.trunc` to i1, and every i1 store into an `llvm.zext` to i8 and a
    byte store, so that such loops load and store byte vectors. The bytes
    hold 0 or 1 as before (the stores write the zero-extended value), so
    the program's results do not change; nothing is allocated.

    Example:

    ```mlir
    %b = llvm.load %p : !llvm.ptr -> i1
    llvm.store %c, %q : i1, !llvm.ptr
    // becomes:
    %0 = llvm.load %p : !llvm.ptr -> i8
    %b = llvm.trunc %0 : i8 to i1
    %1 = llvm.zext %c : i1 to i8
    llvm.store %1, %q : i8, !llvm.ptr
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ApplyNoAliasPointersPass : Pass<"ckpt-apply-noalias-pointers",
                                    "mlir::ModuleOp"> {
  let summary = "Mark the pointer arguments recorded by "
                "ckpt-outline-loop-nests as llvm.noalias";
  let description = [{
    The conversion to the LLVM dialect expands each memref argument into a
    descriptor (allocated and aligned pointers, offset, sizes, strides) and
    keeps no `llvm.noalias` on it. `ckpt-outline-loop-nests` records, in an
    outlined function's `ckpt.noalias_pointers` (positions in the LLVM
    signature), the pointers of the buffers no other argument reaches while
    either is written; this pass, run on the LLVM dialect, sets
    `llvm.noalias` on those arguments of each `llvm.func` and removes the
    record. A position that is not a pointer argument is an error.

    Example:

    ```mlir
    llvm.func @step__nest0(%arg0: !llvm.ptr, %arg1: !llvm.ptr, ...)
        attributes {ckpt.noalias_pointers = array<i64: 0, 1>}
    // becomes:
    llvm.func @step__nest0(%arg0: !llvm.ptr {llvm.noalias},
                           %arg1: !llvm.ptr {llvm.noalias}, ...)
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def StridedCopiesToLinalgPass : Pass<"ckpt-strided-copies-to-linalg"> {
  let summary = "Turn memref.copy ops that are not one contiguous block into "
                "linalg.copy";
  let description = [{
    The LLVM lowering copies a `memref.copy` between contiguous buffers
    with one `memcpy`, and any other (into the interior of a padded buffer,
    out of a strided view) with the MLIR runtime's generic `memrefCopy`,
    element by element with the index arithmetic of an arbitrary rank.
    Rewritten as `linalg.copy`, such a copy becomes the loop nest of its
    shape instead: LLVM vectorizes its innermost loop, and with
    `num-threads` it is a parallel loop like any elementwise op. Nothing is
    allocated. `ckpt-cpu-pipeline` runs it on buffers, before the loop
    lowering.

    Example:

    ```mlir
    memref.copy %x, %interior : memref<64x64x16x16xf32>
        to memref<64x64x16x16xf32, strided<[20736, 324, 18, 1], offset: 19>>
    // becomes
    linalg.copy ins(%x : ...) outs(%interior : ...)
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

#endif // CKPT_TRANSFORMS_PASSES_TD
