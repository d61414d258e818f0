"""python3 -m ckpt.torch.coverage [--models a,b] [--steps 5] [--budget 0.5]
                                 [--amp bf16|f16] [--output docs/TorchCoverage.md]
                                 [--json rows.json]

The coverage table of ckpt.torch on real models (ckpt.torch.zoo: Hugging
Face transformers and torchvision from small configs, training mode, no
dropout). For each model:

- the training step is exported (ckpt.torch.export_training_step);
- it runs as a ckpt.torch.TrainStep without remat and with remat at
  `--budget` of its peak, on identical copies of the model, for `--steps`
  SGD steps, next to eager PyTorch (`loss.backward()`) on a third copy;
- the table shows the share of the peak that no recomputation frees
  (weights, gradients, inputs and targets), whether the budget is reached
  (measured peak at most the budget's bytes; not required where that share
  is RESIDENT_SHARE_OF_BUDGET of the budget or more: 0.4 of the peak at
  budget 0.5), whether both builds are bit-identical (every loss and
  every parameter after the last step), the first step's normwise error of
  all gradients together against eager autograd's, the largest relative loss
  difference from eager over the steps, and for models with BatchNorm the
  normwise difference of all running statistics from eager's after the
  last step and `num_batches_tracked`: ckpt's, eager's, and
  `torch.utils.checkpoint`'s (which runs the forward again during the
  backward and so counts, and updates, twice).

With `--amp bf16` (or `f16`), each row also gets the first step's
gradients under `torch.autocast` of that dtype, from a TrainStep built
under it, against eager PyTorch's autocast gradients (normwise; the row
then also needs them within AMP_TOLERANCE), next to how far eager float32
is from eager autocast (the narrow type's own error).

Each of the gradients, losses and statistics is also compared with eager
PyTorch in float64 (the model and inputs converted): on deep BatchNorm
networks float32 itself is not precise to 1e-4 (eager float32 is 2e-3 from
float64 on ResNet-18 at batch 64), and then the check is that ckpt is no
further from float64 than twice eager float32 is. Eager float32 is run
twice, with oneDNN (PyTorch's default CPU kernels) and without it (its
native kernels): two equally valid float32 results, and on those networks
their distances from float64 differ by up to 4x (a rounding that moves one
value across a ReLU moves the gradient by 1e-2; RegNetY's first-step
gradients: 4.7e-3 with oneDNN, 1.7e-2 without). Eager float32's error is
the larger of the two. A row passes when the
budget is reached (or not required), both builds are bit-identical and the gradients, losses
and statistics pass (within 1e-4 of eager, normwise for gradients and
statistics, relative for losses, or as accurate as eager). The exit status
is non-zero when a row fails.
"""

import argparse
import concurrent.futures
import copy
import json
import sys
import time

#: Learning rate of the SGD steps (small enough that float32 rounding
#: differences do not grow into different trajectories in a few steps).
LEARNING_RATE = 0.01
TOLERANCE = 1e-4
#: Normwise distance allowed between ckpt's and PyTorch's autocast gradients.
AMP_TOLERANCE = 1e-2
#: --amp's names for the autocast dtypes (torch attribute names).
AMP_DTYPES = {"bf16": "bfloat16", "f16": "float16"}
#: A budget (a fraction of the peak) is not required of a model whose
#: weights, gradients and inputs alone take this share of it or more: they
#: stay resident whatever is recomputed, and leave too little of the budget
#: for any activation (0.4 of the peak at budget 0.5).
RESIDENT_SHARE_OF_BUDGET = 0.8
#: Rows that take longest (their builds): measured first with --jobs.
_SLOWEST = ("mobilenet-v2", "resnet18")


def _flat(tensors):
    import torch
    return torch.cat([t.detach().reshape(-1).double() for t in tensors])


def _normwise(got, want):
    import torch
    return float(torch.linalg.vector_norm(got.double() - want.double())
                 / max(float(torch.linalg.vector_norm(want.double())), 1e-30))


def _statistics(model):
    return {n: b for n, b in model.named_buffers() if n.endswith(("running_mean", "running_var"))}


def _tracked(model):
    counts = [int(b) for n, b in model.named_buffers() if n.endswith("num_batches_tracked")]
    return counts[0] if counts else None


def _checkpointed_count(model, inputs, targets, loss_fn, steps):
    """num_batches_tracked after `steps` steps of torch.utils.checkpoint
    around the whole model (the recompute runs BatchNorm's forward again)."""
    import torch
    from torch.utils.checkpoint import checkpoint
    model = copy.deepcopy(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    for _ in range(steps):
        optimizer.zero_grad()
        output = checkpoint(model, *inputs, use_reentrant=False)
        loss_fn(output, *targets).backward()
        optimizer.step()
    return _tracked(model)


def _as_accurate(row, measure):
    """Within TOLERANCE of eager PyTorch, or, where float32 itself is not
    that precise (eager float32 is further than that from float64), no
    further from the float64 result than twice eager float32's distance."""
    if row[measure] <= TOLERANCE:
        return True
    return row[f"{measure}_f64"] <= max(TOLERANCE, 2 * row[f"eager_{measure}_f64"])


def _autocast_gradients(model, inputs, targets, loss_fn, dtype, build):
    """The first-step gradients of `model` under `torch.autocast` of
    `dtype` (an AMP_DTYPES name): eager PyTorch's and a TrainStep's (built under autocast), as
    two lists over the parameters."""
    import torch
    from . import TrainStep
    eager, compiled = copy.deepcopy(model), copy.deepcopy(model)
    with torch.autocast("cpu", dtype=getattr(torch, AMP_DTYPES[dtype])):
        loss_fn(eager(*inputs), *targets).backward()
        TrainStep(compiled, loss_fn, inputs, targets, build=build)(*inputs, *targets)
    return [[p.grad if p.grad is not None else torch.zeros_like(p) for p in m.parameters()]
            for m in (eager, compiled)]


def measure(name, steps=5, budget="0.5", build=None, amp=None):
    """One row of the table for ckpt.torch.zoo's `name`, as a dict; `amp`
    (`bf16`, `f16` or None) adds the autocast gradient check."""
    import torch
    from . import ExportError, TrainStep, VerificationError
    from .zoo import ZOO

    row = {"model": name, "passed": False}
    model, inputs, targets, loss_fn = ZOO[name]()
    copies = {"eager": copy.deepcopy(model), "none": copy.deepcopy(model),
              "remat": copy.deepcopy(model), "f64": copy.deepcopy(model).double(),
              "eager-native": copy.deepcopy(model)}
    in_float64 = tuple(tuple(t.double() if t.is_floating_point() else t for t in tensors)
                       for tensors in (inputs, targets))
    eager_arguments = {"eager": (inputs, targets), "f64": in_float64,
                       "eager-native": (inputs, targets)}

    def build_step(key, step_budget):
        # A budget no schedule meets builds the smallest peak found instead
        # (in the same planning run), for the other checks; the row says so.
        start = time.perf_counter()
        step = TrainStep(copies[key], loss_fn, inputs, targets, budget=step_budget,
                         build=build, on_infeasible="min")
        # The build without remat checks its first step against eager
        # float64 (TrainStep(verify=True)): a wrong result fails the row.
        # Eager cannot replay a step's random draws.
        step.verify = step_budget is None and not step.exported.random
        if step_budget is not None:
            function = step.report["functions"][0]
            if not function["budget_met"]:
                row["smallest_peak_bytes"] = function["peak_bytes"]
        row[f"build_{key}_s"] = time.perf_counter() - start
        return step

    # Both builds at once: ckpt-compile runs in its own process.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = {key: pool.submit(build_step, key, step_budget)
                   for key, step_budget in (("none", None), ("remat", budget))}
        try:
            built = {key: future.result() for key, future in futures.items()}
            if amp:
                amp_grads = _autocast_gradients(model, inputs, targets, loss_fn, amp, build)
        except RuntimeError as error:
            row["error"] = str(error).splitlines()[0][:300]
            row["exported"] = not isinstance(error, ExportError)
            return row
    exported = built["none"].exported
    row["export_s"] = exported.export_time_s
    row["aten_ops"] = len(exported.aten_ops)
    row["updated_buffers"] = len(exported.updated_buffers)

    optimizers = {k: torch.optim.SGD(m.parameters(), lr=LEARNING_RATE)
                  for k, m in copies.items()}
    losses = {k: [] for k in copies}
    for index in range(steps):
        for key, model_copy in copies.items():
            optimizers[key].zero_grad(set_to_none=True)
            if key in eager_arguments:
                step_inputs, step_targets = eager_arguments[key]
                # Eager float32 once more on PyTorch's native CPU kernels.
                onednn = torch.backends.mkldnn.enabled
                torch.backends.mkldnn.enabled = key != "eager-native"
                try:
                    loss = loss_fn(model_copy(*step_inputs), *step_targets)
                    loss.backward()
                finally:
                    torch.backends.mkldnn.enabled = onednn
            else:
                try:
                    loss = built[key](*inputs, *targets)
                except VerificationError as error:
                    row["error"] = str(error)[:300]
                    row["exported"] = True
                    return row
            losses[key].append(float(loss.detach()))
        if index == 0:
            grads = {k: [p.grad if p.grad is not None else torch.zeros_like(p)
                         for p in m.parameters()] for k, m in copies.items()}
            # Over all gradients at once: some are zero in exact arithmetic
            # (the key bias under softmax) and rounding noise alone.
            row["grad_error"] = _normwise(_flat(grads["none"]), _flat(grads["eager"]))
            row["grad_error_f64"] = _normwise(_flat(grads["none"]), _flat(grads["f64"]))
            row["eager_grad_error_f64"] = max(
                _normwise(_flat(grads[key]), _flat(grads["f64"]))
                for key in ("eager", "eager-native"))
            row["grads_identical"] = all(torch.equal(a, b) for a, b in zip(grads["none"],
                                                                          grads["remat"]))
            if amp:
                row["amp_grad_error"] = _normwise(_flat(amp_grads[1]), _flat(amp_grads[0]))
                row["amp_eager_f32_error"] = _normwise(_flat(grads["eager"]),
                                                       _flat(amp_grads[0]))
        for optimizer in optimizers.values():
            optimizer.step()

    row["losses_eager"] = losses["eager"]
    row["losses_ckpt"] = losses["none"]

    def loss_error(got, want):
        return max(abs(a - b) / max(abs(b), 1e-30) for a, b in zip(got, want))

    row["loss_error"] = loss_error(losses["none"], losses["eager"])
    row["loss_error_f64"] = loss_error(losses["none"], losses["f64"])
    row["eager_loss_error_f64"] = max(loss_error(losses[key], losses["f64"])
                                      for key in ("eager", "eager-native"))
    row["identical"] = (row["grads_identical"] and losses["none"] == losses["remat"]
                        and torch.equal(_flat(copies["none"].parameters()),
                                        _flat(copies["remat"].parameters())))
    report = built["remat"].report["functions"][0]
    row["peak_bytes"] = built["none"].peak_bytes
    row["remat_peak_bytes"] = built["remat"].peak_bytes
    row["budget_bytes"] = report["budget_bytes"]
    row["recompute_count"] = report["recompute_count"]
    row["budget_reached"] = ("smallest_peak_bytes" not in row
                             and row["remat_peak_bytes"] <= row["budget_bytes"])
    row["resident_share"] = _resident_bytes(model, inputs, targets) / row["peak_bytes"]
    row["budget_exempt"] = _budget_exempt(row["resident_share"], budget)

    statistics = _statistics(copies["eager"])
    passed_statistics = True
    if statistics:
        # All statistics at once, like the gradients: some running means
        # are zero in exact arithmetic (after a BatchNorm), rounding alone.
        ckpt_statistics = _statistics(copies["none"])
        f64_statistics = _statistics(copies["f64"])
        exact = _flat(f64_statistics[n] for n in statistics)
        row["statistics_error"] = _normwise(_flat(ckpt_statistics[n] for n in statistics),
                                            _flat(statistics.values()))
        row["statistics_error_f64"] = _normwise(_flat(ckpt_statistics[n] for n in statistics),
                                                exact)
        native_statistics = _statistics(copies["eager-native"])
        row["eager_statistics_error_f64"] = max(
            _normwise(_flat(statistics.values()), exact),
            _normwise(_flat(native_statistics[n] for n in statistics), exact))
        row["tracked_ckpt"] = _tracked(copies["none"])
        row["tracked_remat"] = _tracked(copies["remat"])
        row["tracked_eager"] = _tracked(copies["eager"])
        row["tracked_checkpoint"] = _checkpointed_count(model, inputs, targets, loss_fn, steps)
        passed_statistics = (_as_accurate(row, "statistics_error")
                             and row["tracked_ckpt"] == row["tracked_remat"]
                             == row["tracked_eager"])
    row["passed"] = ((row["budget_reached"] or row["budget_exempt"]) and row["identical"]
                     and _as_accurate(row, "grad_error") and _as_accurate(row, "loss_error")
                     and passed_statistics
                     and row.get("amp_grad_error", 0.0) <= AMP_TOLERANCE)
    return row


def _resident_bytes(model, inputs, targets):
    """Bytes that no recomputation frees: the parameters, their gradients
    (of those that require grad) and the step's inputs and targets."""
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    grads = sum(p.numel() * p.element_size() for p in model.parameters() if p.requires_grad)
    data = sum(t.numel() * t.element_size() for t in (*inputs, *targets))
    return weights + grads + data


def _budget_exempt(resident_share, budget):
    """Whether a fraction `budget` is not required of a model whose resident
    bytes are `resident_share` of its peak (RESIDENT_SHARE_OF_BUDGET)."""
    try:
        fraction = float(budget)
    except ValueError:
        return False
    return resident_share >= RESIDENT_SHARE_OF_BUDGET * fraction


def _mib(size):
    return f"{size / 2**20:.2f}"


def _error_cell(row, measure):
    return (f"{row[measure]:.1e} ({row[f'{measure}_f64']:.1e} / "
            f"{row[f'eager_{measure}_f64']:.1e})")


def _remat_cell(row):
    if "smallest_peak_bytes" in row:
        verdict = ("not required: weights, gradients and inputs are "
                   f"{row['resident_share']:.2f} of the peak" if row.get("budget_exempt")
                   else "missed")
        return (f"{verdict}; the smallest peak found is {_mib(row['smallest_peak_bytes'])} "
                f"({row['smallest_peak_bytes'] / row['peak_bytes']:.2f} of the peak; built at "
                f"that, {row['recompute_count']} recomputed)")
    return (f"{_mib(row['remat_peak_bytes'])} of {_mib(row['budget_bytes'])} ("
            f"{'reached' if row['budget_reached'] else 'missed'}, "
            f"{row['recompute_count']} recomputed)")


def table(rows, steps, budget, amp=None):
    """The rows as a Markdown table (with the autocast column when `amp`)."""
    amp_header = (f"| {amp} autocast grad error vs PyTorch autocast (eager f32 vs autocast) "
                  if amp else "")
    lines = [f"| model | exported | peak MiB | weights + grads + inputs / peak "
             f"| remat peak MiB (budget {budget}) | bit-identical "
             f"| grad error vs eager (ckpt / eager vs f64) "
             f"| loss error vs eager, {steps} steps (ckpt / eager vs f64) "
             f"| BN stats error vs eager (ckpt / eager vs f64) "
             f"| num_batches_tracked ckpt / eager / checkpoint {amp_header}| passed |",
             "|---|---|---|---|---|---|---|---|---|---|" + "---|" * bool(amp) + "---|"]
    for row in rows:
        if "error" in row:
            exported = "yes" if row.get("exported") else "no"
            lines.append(f"| {row['model']} | {exported} | failed: "
                         f"{row['error'].replace('|', '/')} | | | | | | | " + "| " * bool(amp)
                         + "| no |")
            continue
        amp_cell = (f"| {row['amp_grad_error']:.1e} ({row['amp_eager_f32_error']:.1e}) "
                    if amp else "")
        statistics = (_error_cell(row, "statistics_error") if "statistics_error" in row
                      else "-")
        tracked = (f"{row['tracked_ckpt']} / {row['tracked_eager']} / "
                   f"{row['tracked_checkpoint']}" if "tracked_ckpt" in row else "-")
        lines.append(
            f"| {row['model']} | yes ({row['export_s']:.1f} s, {row['aten_ops']} aten ops) "
            f"| {_mib(row['peak_bytes'])} | {row['resident_share']:.2f} | {_remat_cell(row)} "
            f"| {'yes' if row['identical'] else 'no'} "
            f"| {_error_cell(row, 'grad_error')} | {_error_cell(row, 'loss_error')} "
            f"| {statistics} | {tracked} {amp_cell}"
            f"| {'yes' if row['passed'] else 'no'} |")
    return "\n".join(lines) + "\n"


def _timed_row(name, steps, budget, build, amp=None):
    import torch
    torch.set_num_threads(1)
    start = time.perf_counter()
    row = measure(name, steps=steps, budget=budget, build=build, amp=amp)
    row["seconds"] = time.perf_counter() - start
    return row


def _reported(row):
    print(f"{row['model']}: {'passed' if row['passed'] else 'FAILED'} ({row['seconds']:.1f} s)"
          + (f": {row['error']}" if "error" in row else ""), flush=True)
    return row


def _command(args, zoo):
    """The command line that writes this table (without the options that
    do not change it)."""
    words = ["python3 -m ckpt.torch.coverage"]
    if args.models != ",".join(zoo):
        words.append(f"--models {args.models}")
    if args.steps != 5:
        words.append(f"--steps {args.steps}")
    if args.budget != "0.5":
        words.append(f"--budget {args.budget}")
    if args.amp:
        words.append(f"--amp {args.amp}")
    words.append(f"--output {args.output}")
    return " ".join(words)


def main(argv=None):
    from .zoo import ZOO
    parser = argparse.ArgumentParser(prog="python3 -m ckpt.torch.coverage", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(ZOO),
                        help="comma-separated names from ckpt.torch.zoo (default: all)")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--budget", default="0.5")
    parser.add_argument("--output", help="write the Markdown table here")
    parser.add_argument("--json", help="write the rows as JSON here")
    parser.add_argument("--build", help="ckpt's build directory (default: CKPT_BUILD_DIR)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="models measured at once, each in its own process")
    parser.add_argument("--amp", choices=sorted(AMP_DTYPES),
                        help="also compare the gradients under torch.autocast of this dtype "
                             "with PyTorch's autocast")
    args = parser.parse_args(argv)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in ZOO]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(ZOO)}")

    rows = []
    if args.jobs > 1:
        import multiprocessing
        context = multiprocessing.get_context("spawn")
        # The convolutional networks take longest: started first.
        order = sorted(names, key=lambda n: n not in _SLOWEST)
        with concurrent.futures.ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
            futures = {name: pool.submit(_timed_row, name, args.steps, args.budget, args.build,
                                          args.amp)
                       for name in order}
            rows = [_reported(futures[name].result()) for name in names]
    else:
        for name in names:
            rows.append(_reported(_timed_row(name, args.steps, args.budget, args.build,
                                             args.amp)))
    text = table(rows, args.steps, args.budget, args.amp)
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write("# ckpt.torch on real models\n\n"
                    f"Generated by `{_command(args, ZOO)}` (models: `ckpt.torch.zoo`, "
                    "small configs, training "
                    "mode, dropout 0, SGD at lr "
                    f"{LEARNING_RATE}, one thread; see the module's documentation for what "
                    "each column measures).\n\n" + text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(row["passed"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
