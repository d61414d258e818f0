//===- Passes.td - lowerings to GPU kernels and library calls -*- tablegen -*-===//
//
// Linalg on buffers to GPU block/thread-mapped kernels, GEMMs to cuBLAS
// calls, buffers to device allocations, kernel modules merged.
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_CONVERSION_PASSES_TD
#define CKPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def AttentionToCudaPass : Pass<"ckpt-attention-to-cuda", "mlir::ModuleOp"> {
  let summary = "Turn attention ops on memrefs into calls to the fused CUDA "
                "attention kernels";
  let description = [{
    Replaces every `ckpt.attention` and `ckpt.attention_grad` on memrefs by
    a call to libckpt_cuda_runtime's fused attention
    (`ckpt_cuda_attention_f32`, `ckpt_cuda_attention_grad_f32`, and their
    `_masked_` forms with a key mask): flash attention's forward and its
    backward recomputing the probabilities tile by tile, so the step holds
    nothing with two sequence dimensions, and no sum depends on the order
    threads run in. Each operand is passed as a [batch, heads, rows, width]
    view (`memref.reinterpret_cast` of its base buffer, unit leading sizes
    added below rank 4; the log-sum-exp and the mask as [batch, heads,
    rows]); the callees are declared with `llvm.emit_c_interface`. The
    kernels allocate nothing: the buffers are the op's operands, so the
    memory analysis's forecast stays the device's peak.

    f32 only, the query of rank 2 to 4, head widths up to 256: anything
    else fails with a diagnostic (`ckpt-decompose-attention
    keep-cuda-kernels` decomposes exactly those ops first, as
    ckpt-gpu-pipeline does).

    Example:

    ```mlir
    ckpt.attention causal scale(0.25)
        ins(%q, %k, %v : memref<4x128x16xf32>, memref<4x128x16xf32>, memref<4x128x16xf32>)
        outs(%o, %lse : memref<4x128x16xf32>, memref<4x128xf32>)
    // becomes
    %base, %offset, %sizes:3, %strides:3 = memref.extract_strided_metadata %q : ...
    %qv = memref.reinterpret_cast %base to offset: [%offset], sizes: [%c1, %sizes#0, %sizes#1, %sizes#2], strides: [%c0, %strides#0, %strides#1, %strides#2] : ...
    ...
    call @ckpt_cuda_attention_f32(%qv, %kv, %vv, %ov, %lv, %c1_i32, %scale) : (...) -> ()
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def GemmToBlasPass : Pass<"ckpt-gemm-to-blas", "mlir::ModuleOp"> {
  let summary = "Turn matmul-like linalg ops on memrefs into BLAS calls";
  let description = [{
    The CPU counterpart of `ckpt-gemm-to-cublas`, with the same matcher and
    the same simplification of generics first: every plain contraction on
    memrefs (`linalg.matmul`, `linalg.batch_matmul`, generics with the same
    multiply-add body, transposed operands or product) with element types
    f32 x f32 -> f32 or f64 x f64 -> f64 becomes a call to a GEMM of
    `libckpt_blas_runtime` (`ckpt_cpu_gemm_f32`, `_f64`,
    `ckpt_cpu_batch_gemm_*`), which runs oneDNN's `dnnl_sgemm` (f32) and
    CBLAS (OpenBLAS, f64, and f32 without oneDNN):
    `C += op(A) op(B)`, C written in place, on `num-threads` threads (the last
    argument of every call). Nothing is allocated, so the memory forecast
    and the measured peak are those of the loops it replaces. Anything else
    (bf16, a fused prologue, several K dimensions) is left to the loops.
    `ckpt-cpu-pipeline{gemm=blas}` runs it after deallocation, with its
    `num-threads`.

    Example:

    ```mlir
    linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>)
                  outs(%c : memref<64x16xf32>)
    // becomes
    %0 = memref.cast %a : memref<64x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    call @ckpt_cpu_gemm_f32(%0, %1, %2, %c0_i32, %c0_i32, %c1_i32) : (...) -> ()
    ```
  }];
  let options = [
    Option<"threads", "num-threads", "int64_t", /*default=*/"1",
           "Threads each GEMM runs on">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def LegalizeNarrowFloatCastsPass : Pass<"ckpt-legalize-narrow-float-casts"> {
  let summary = "Expand bf16 casts into integer arithmetic and drop fastmath "
                "flags from float casts, for LLVM on CPUs";
  let description = [{
    LLVM lowers `fptrunc` to `bfloat` on x86 CPUs without AVX512-BF16 to a
    call of `__truncsfbf2`, which Debian 12's libgcc does not have, and bf16
    arithmetic through the same helper. The CPU pipeline first computes bf16
    and f16 arithmetic and math in f32 (upstream's
    `arith-emulate-unsupported-floats` and `math-extend-to-supported-types`:
    each op rounded once, as PyTorch's CPU kernels do); this pass then
    rewrites the remaining `arith.extf` from bf16 into a shift of its bits
    and `arith.truncf` to bf16 into round-to-nearest-even on the bits
    (upstream's bf16 expansion patterns, without the rest of `arith-expand`,
    which would also rewrite f32 `arith.maximumf`), and removes the
    `fastmath` flags the emulation gives the extensions and truncations it
    adds (LLVM's `fpext`/`fptrunc` take none; the conversion would leave
    them as an `#arith.fastmath` attribute on the LLVM op). Other ops are
    unchanged.

    Example:

    ```mlir
    %h = arith.truncf %x : f32 to bf16
    // becomes arith.bitcast %x : f32 to i32, the rounding bias added,
    // arith.shrui by 16, arith.trunci to i16, arith.bitcast to bf16 (NaN
    // kept a NaN)
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
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


#endif // CKPT_CONVERSION_PASSES_TD
