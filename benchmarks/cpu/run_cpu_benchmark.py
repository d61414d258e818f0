"""CPU step time of ckpt's compiled training step against PyTorch eager,
side by side in one run, on the same thread count.

For each PyTorch model (ckpt.torch's examples, a GPT and a ResNet, and
ckpt.torch.zoo's real models by name, e.g. resnet18 or gpt2-sdpa, exported
with ckpt.torch.export_training_step): PyTorch eager's training
step (forward, loss, backward by autograd) with torch.set_num_threads(T),
and ckpt's builds of the exported step (ckpt-compile --emit=lib, called on the
same inputs; the builds and eager take turns, step by step) with the
matmuls as loops (gemm=codegen) and through OpenBLAS (gemm=blas, with
OPENBLAS_NUM_THREADS=T; convolutions as im2col and a GEMM), each without
remat and at a budget, or where no schedule meets it at the smallest peak
found plus 0.02 of the baseline.
With --iree, also IREE's CPU build of the same step (ckpt-compile
--backend=iree-cpu, local-sync: one thread), without remat and at the
budget of IREE's own peak (or IREE's smallest peak plus 0.02 of its
baseline where the budget is infeasible under IREE); its peak is IREE's
DEVICE_LOCAL peak as iree-run-module measures it (inputs and results
included; ckpt's rows count the inputs and the step's buffers).
With --amp bf16 (or f16), the step is exported under torch.autocast and
eager runs under it too: the matmuls compute in the narrow type, ckpt's
accumulate in f32 as PyTorch's do (with gemm=blas on the f32 GEMMs, over f32
copies of their operands).
Prints the median step times, the ratios to eager and to the same build
without remat, and the measured peaks.

    PYTHONPATH=python python3 benchmarks/cpu/run_cpu_benchmark.py [--threads 1] \
        [--models gpt,resnet,resnet18] [--gemm codegen,blas] [--iree] [--amp bf16]
"""

import argparse
import contextlib
import gc
import os
import statistics
import sys
import tempfile
import time


def build(step, work, gemm, budget, index, threads):
    """Builds `step` with `gemm` at `budget` (none: no remat) into `work`;
    returns the row's label and the library. A budget no schedule meets
    becomes the smallest peak found plus 0.02 of the baseline (fractions of
    the planner's baseline)."""
    from ckpt.execution import BuildError, build_library

    label = f"ckpt gemm={gemm}" + (f" budget={budget}" if budget else "")
    folder = os.path.join(work, str(index))
    os.makedirs(folder)
    try:
        library, _ = build_library(step.mlir, step.entry, folder, budget=budget, gemm=gemm,
                                   threads=threads)
        return label, library
    except BuildError as error:
        if error.kind != "infeasible-budget":
            raise
    _, report = build_library(step.mlir, step.entry, folder, budget="min", gemm=gemm,
                              threads=threads)
    smallest = report["functions"][0]
    fraction = smallest["peak_bytes"] / smallest["baseline_peak_bytes"] + 0.02
    library, _ = build_library(step.mlir, step.entry, folder, budget=f"{fraction:.4f}",
                               gemm=gemm, threads=threads)
    return f"ckpt gemm={gemm} budget=min+0.02={fraction:.3f}", library


def build_iree(step, work, budget, index):
    """Builds `step` with IREE's CPU backend at `budget` of IREE's own peak
    (none: no remat) into `work`; returns the row's label, the IreeStep and
    IREE's measured peak. A budget infeasible under IREE becomes IREE's
    smallest peak plus 0.02 of its baseline."""
    from ckpt.execution import BuildError
    from ckpt.iree_step import IreeStep, build_module

    label = "iree-cpu" + (f" budget={budget}" if budget else "")
    folder = os.path.join(work, str(index))
    os.makedirs(folder)
    try:
        vmfb, report = build_module(step.mlir, step.entry, folder, budget=budget)
    except BuildError as error:
        if error.kind != "infeasible-budget":
            raise
        _, plain = build_module(step.mlir, step.entry, folder)
        fraction = error.smallest_peak_bytes / plain["iree"]["peak_bytes"] + 0.02
        vmfb, report = build_module(step.mlir, step.entry, folder, budget=f"{fraction:.4f}")
        label = f"iree-cpu budget=min+0.02={fraction:.3f}"
    return label, IreeStep(vmfb, step.entry), report["iree"]["peak_bytes"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=5, help="rounds")
    parser.add_argument("--budget", default="0.5")
    parser.add_argument("--models", default="gpt,resnet,resnet18")
    parser.add_argument("--gemm", default="codegen,blas")
    parser.add_argument("--iree", action="store_true",
                        help="also IREE's CPU build (local-sync, one thread)")
    parser.add_argument("--amp", choices=["none", "bf16", "f16"], default="none",
                        help="export and run eager under torch.autocast with this dtype")
    args = parser.parse_args()
    # Before OpenBLAS and torch start their thread pools (the builds take
    # theirs from --num-threads).
    os.environ["OPENBLAS_NUM_THREADS"] = str(args.threads)
    import torch
    from ckpt.torch import export_training_step
    from ckpt.aot import CompiledStep
    from ckpt.execution import input_bytes
    from ckpt.torch.models import EXAMPLES
    from ckpt.torch.zoo import ZOO

    torch.set_num_threads(args.threads)

    def autocast():
        if args.amp == "none":
            return contextlib.nullcontext()
        dtype = torch.bfloat16 if args.amp == "bf16" else torch.float16
        return torch.autocast("cpu", dtype=dtype)

    print(f"threads={args.threads} iterations={args.iterations} amp={args.amp} "
          f"torch {torch.__version__}")
    print(f"{'model':9} {'build':38} {'step_time_s':>12} {'vs_eager':>9} {'peak_bytes':>12} "
          f"{'vs_noremat':>11}")
    for name in args.models.split(","):
        model, inputs, targets, loss_fn = (EXAMPLES[name] if name in EXAMPLES else ZOO[name])()
        with autocast():
            step = export_training_step(model, inputs, loss_fn, targets=targets)
        arguments = step.arguments(model, inputs, targets)

        def eager():
            model.zero_grad(set_to_none=True)
            with autocast():
                loss = loss_fn(model(*inputs), *targets)
            loss.backward()

        with tempfile.TemporaryDirectory(prefix="ckpt-cpu-benchmark-") as work:
            runs = [("pytorch eager", eager, None)]
            for gemm in args.gemm.split(","):
                for budget in (None, args.budget):
                    label, library = build(step, work, gemm, budget, len(runs), args.threads)
                    compiled = CompiledStep(library, step.entry)
                    runs.append((label, lambda c=compiled: c(*arguments), compiled))
            if args.iree:
                for budget in (None, args.budget):
                    label, iree_step, peak = build_iree(step, work, budget, len(runs))
                    device_arguments = iree_step.on_device(arguments)
                    runs.append((label, lambda s=iree_step, a=device_arguments: s(*a), peak))
            # In rounds: each build in turn runs a block of consecutive steps,
            # as in a training loop (two untimed, then three timed), so that
            # drifts of the machine (frequency, other load) reach every build
            # alike; the median over all rounds' timed steps.
            # Without Python's garbage collector, as timeit does: its
            # passes over the exported graphs would land in whichever step
            # allocates the object that triggers them.
            times = [[] for _ in runs]
            gc.collect()
            gc.disable()
            for _ in range(args.iterations):
                for index, (_, call, _) in enumerate(runs):
                    call()
                    call()
                    for _ in range(3):
                        start = time.perf_counter()
                        call()
                        times[index].append(time.perf_counter() - start)
            gc.enable()
            medians = [statistics.median(t) for t in times]
            for index, (label, _, compiled) in enumerate(runs):
                if compiled is None:
                    print(f"{name:9} {label:38} {medians[index]:12.3e} {1.0:9.2f}")
                    continue
                plain = medians[index - 1] if "budget" in label else medians[index]
                peak = compiled if isinstance(compiled, int) else (
                    compiled.peak_bytes() + input_bytes(compiled))
                print(f"{name:9} {label:38} {medians[index]:12.3e} "
                      f"{medians[index] / medians[0]:9.2f} {peak:12d} "
                      f"{medians[index] / plain:11.2f}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
