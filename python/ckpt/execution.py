"""Runs an entry of an MLIR module from Python: ckpt.run.

    result = ckpt.run(module_text, "loss_grad", backend="cpu", budget="0.5")
    loss, *grads = result.outputs          # numpy arrays
    result.peak_bytes, result.step_time_s, result.report

The module is built ahead of time with ckpt-compile (--emit=lib, optionally
rematerialized) and called through ckpt.aot, on the caller's inputs or on
the inputs ckpt-run generates from `seed` (ckpt.inputs). `peak_bytes`
counts what ckpt-run counts (the step's buffers plus the inputs, as the
runtime would allocate them), so the figures of both agree.
"""

import dataclasses
import json
import os
import statistics
import subprocess
import tempfile
import time

import numpy

from .aot import CompiledStep
from .inputs import generate
from .tools import find_tool

_ALIGNMENT = 64


@dataclasses.dataclass
class RunResult:
    """What ckpt.run measured."""
    outputs: list
    #: Peak bytes as ckpt-run reports them: the step's buffers plus the
    #: inputs (for CUDA, device bytes, inputs staged into managed memory).
    peak_bytes: int
    #: Peak bytes of the step's own buffers.
    step_peak_bytes: int
    #: Median wall-clock seconds of one call (inputs already in place).
    step_time_s: float
    #: ckpt-remat's report (a dict) when a budget was given, else None.
    report: dict = None


class BuildError(RuntimeError):
    """ckpt-compile failed; the message holds its diagnostics. `kind` is
    what ckpt-remat's report says of the failure (`infeasible-budget`: no
    schedule found meets the budget; None for other failures) and
    `smallest_peak_bytes` the smallest peak found, for infeasible budgets."""

    def __init__(self, message, error=None):
        super().__init__(message)
        error = error or {}
        self.kind = error.get("kind")
        self.smallest_peak_bytes = error.get("smallest_peak_bytes")


def _report_error(path):
    """The `error` object ckpt-remat's report at `path` holds, if any."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    return next((f["error"] for f in report.get("functions", []) if "error" in f), None)


def remat_flags(budget, solver, policy, on_infeasible="error"):
    """ckpt-compile's remat flags for `budget` (none: no remat)."""
    if budget is None:
        return []
    flags = [f"--remat-budget={budget}", f"--remat-solver={solver}"]
    if policy:
        flags.append(f"--remat-policy={policy}")
    if on_infeasible != "error":
        flags.append(f"--remat-on-infeasible={on_infeasible}")
    return flags


def run_compile(command, report_path):
    """Runs the ckpt-compile `command`; raises BuildError with its
    diagnostics and the error of the report at `report_path`."""
    compiled = subprocess.run(command, capture_output=True, text=True)
    if compiled.returncode != 0:
        raise BuildError(compiled.stderr.strip() or "ckpt-compile failed",
                         _report_error(report_path))


def build_library(module, entry, work, backend="cpu", budget=None, solver="auto", policy=None,
                  build=None, gemm="codegen", threads=1, on_infeasible="error"):
    """Builds `entry` of `module` (MLIR text) with ckpt-compile --emit=lib
    into the folder `work`, rematerialized to `budget` when given, its CPU
    step on `threads` threads; returns the library's path and ckpt-remat's
    report (a dict, or None without a budget). Raises BuildError with
    ckpt-compile's diagnostics; a budget no schedule meets is one unless
    `on_infeasible="min"`, which builds the smallest peak found instead
    (the report's `budget_met` is then false)."""
    source = os.path.join(work, f"{entry}.mlir")
    with open(source, "w") as f:
        f.write(module)
    library = os.path.join(work, f"lib{entry}.so")
    command = [find_tool("ckpt-compile", build), source, f"--entry={entry}",
               f"--backend={backend}", "--emit=lib", "-o", library]
    if gemm != "codegen":
        command.append(f"--gemm={gemm}")
    if threads != 1:
        command.append(f"--num-threads={threads}")
    report_path = os.path.join(work, f"{entry}-report.json")
    if budget is not None:
        command += remat_flags(budget, solver, policy, on_infeasible) + \
            [f"--remat-report={report_path}"]
    run_compile(command, report_path)
    report = None
    if budget is not None:
        with open(report_path) as f:
            report = json.load(f)
    return library, report


def input_bytes(step):
    """Bytes ckpt-run counts for the inputs of a CPU library (as the runtime
    would allocate them, rounded up to 64 bytes; a CPU library does not see
    the caller's buffers). 0 for CUDA, whose library stages and counts them."""
    if step.backend != "cpu":
        return 0
    total = 0
    for shape, dtype in step.inputs:
        size = int(numpy.prod(shape, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize
        total += (size + _ALIGNMENT - 1) // _ALIGNMENT * _ALIGNMENT
    return total


def run(module, entry, backend="cpu", inputs=None, seed=1, iterations=5, budget=None,
        solver="auto", policy=None, build=None, gemm="codegen", threads=1):
    """Compiles `entry` of `module` (MLIR text) for `backend` (`cpu`,
    `cuda` or `iree-cpu`), rematerialized to `budget` when given, runs it `iterations`
    times on `inputs` (numpy arrays or torch tensors; default: ckpt-run's
    inputs for `seed`) and returns a RunResult. `gemm="blas"` runs the CPU
    build's f32/f64 matmuls through oneDNN/OpenBLAS (ckpt-cpu-pipeline's gemm);
    `threads` is the CPU step's thread count (its GEMMs and, above 1, its
    parallel loops on an OpenMP team). With `iree-cpu`, ckpt-compile hands
    the step to IREE's CPU backend and the budget is a fraction (or bytes)
    of IREE's own measured peak; `peak_bytes` is the DEVICE_LOCAL peak
    iree-run-module measured for the build, `report["iree"]` IREE's
    figures, and `gemm` and
    `threads` do not apply. Compilation errors raise
    BuildError (a RuntimeError) with ckpt-compile's diagnostics and, for a
    budget no schedule meets, its kind and the smallest peak found."""
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    if backend == "iree-cpu":
        return _run_iree(module, entry, inputs, seed, iterations, budget, solver, policy,
                         build)
    with tempfile.TemporaryDirectory(prefix="ckpt-run-") as work:
        library, report = build_library(module, entry, work, backend=backend, budget=budget,
                                        solver=solver, policy=policy, build=build, gemm=gemm,
                                        threads=threads)
        step = CompiledStep(library, entry)
        args = list(inputs) if inputs is not None else generate(step.inputs, seed)
        seconds, step_peak, outputs = [], 0, None
        for _ in range(iterations):
            start = time.perf_counter()
            outputs = step(*args)
            seconds.append(time.perf_counter() - start)
            step_peak = max(step_peak, step.peak_bytes())
        return RunResult(outputs=outputs, peak_bytes=step_peak + input_bytes(step),
                         step_peak_bytes=step_peak,
                         step_time_s=statistics.median(seconds), report=report)


def _run_iree(module, entry, inputs, seed, iterations, budget, solver, policy, build):
    """ckpt.run for backend='iree-cpu' (ckpt.iree_step)."""
    from .iree_step import build_module, run_module
    with tempfile.TemporaryDirectory(prefix="ckpt-run-") as work:
        vmfb, report = build_module(module, entry, work, budget=budget, solver=solver,
                                    policy=policy, build=build)
        outputs, seconds = run_module(vmfb, entry, report["iree"]["arguments"],
                                      inputs=inputs, seed=seed, iterations=iterations)
    peak = report["iree"]["peak_bytes"]
    return RunResult(outputs=outputs, peak_bytes=peak, step_peak_bytes=peak,
                     step_time_s=seconds, report=report if budget is not None else None)
