//===- Passes.td - rematerialization passes ---------------*- tablegen -*-===//
//
// ckpt-remat (recompute activations to a memory budget) and ckpt-report (what
// the memory analysis and the cost model see).
//
//===----------------------------------------------------------------------===//

#ifndef CKPT_REMAT_PASSES_TD
#define CKPT_REMAT_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def OverwriteDyingInputsPass : Pass<"ckpt-overwrite-dying-inputs",
                                     "mlir::ModuleOp"> {
  let summary = "Write elementwise results into inputs that die there";
  let description = [{
    An elementwise `linalg.generic` (every loop parallel) whose init is a
    `tensor.empty` gets as init one of its inputs when that input has the
    result's type, is read at the element the op writes (the same
    permutation map) and only there (not inside the payload, not twice), is
    computed in the function (not an argument, not a reshape or slice of
    another value) and is read by nothing after the op. Bufferization then
    writes the result into the input's buffer instead of a new one: a
    ReLU's or a BatchNorm's gradient over the incoming gradient, an
    activation over the value it is the only reader of.

    The remat planner knows these ties (the node overwrites its input where
    the plan frees the input right after it, and needs its own buffer where
    the plan keeps the input longer, where bufferization then allocates). A tie
    that one-shot bufferization would not make in place is undone, so no
    copy is ever added. The tensor preparation of the pipelines runs it last.

    Example:

    ```
    ckpt-opt step.mlir --ckpt-tensor-prep --ckpt-overwrite-dying-inputs
    ```
  }];
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
    the ops writing into it in place, views of it, not a loop that only reads
    it through views in its body; cycles through in-place updates such as
    `x - mean(x)` merged), its bytes the allocations, its
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

    The options (`budget`, `solver`, `policy`, `time-limit`, `target`,
    `report`, `report-format`, `graph`, `functions`) are defined once, in
    `include/ckpt/Remat/RematOptions.def`, for this pass, the pipelines
    (`remat-` prefixed in `ckpt-cpu-pipeline` and `ckpt-gpu-pipeline`), the
    tools' `--remat-*` flags, the C API and Python;
    `docs/generated/RematOptions.md` lists them.

    Example:

    ```
    ckpt-opt step.mlir --ckpt-tensor-prep \
      --ckpt-remat="budget=60% solver=auto report=remat.json" \
      --ckpt-cpu-pipeline
    ```
  }];
  let dependentDialects = ["mlir::ckpt::CkptDialect"];
}


#endif // CKPT_REMAT_PASSES_TD
