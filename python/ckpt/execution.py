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


def run(module, entry, backend="cpu", inputs=None, seed=1, iterations=5, budget=None,
        solver="auto", policy=None, build=None, gemm="codegen"):
    """Compiles `entry` of `module` (MLIR text) for `backend` (`cpu` or
    `cuda`), rematerialized to `budget` when given, runs it `iterations`
    times on `inputs` (numpy arrays or torch tensors; default: ckpt-run's
    inputs for `seed`) and returns a RunResult. `gemm="blas"` runs the CPU
    build's f32/f64 matmuls through OpenBLAS (ckpt-cpu-pipeline's gemm). Compilation errors raise
    BuildError (a RuntimeError) with ckpt-compile's diagnostics and, for a
    budget no schedule meets, its kind and the smallest peak found."""
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    with tempfile.TemporaryDirectory(prefix="ckpt-run-") as work:
        source = os.path.join(work, "module.mlir")
        with open(source, "w") as f:
            f.write(module)
        library = os.path.join(work, "libstep.so")
        command = [find_tool("ckpt-compile", build), source, f"--entry={entry}",
                   f"--backend={backend}", "--emit=lib", "-o", library]
        if gemm != "codegen":
            command.append(f"--gemm={gemm}")
        report_path = os.path.join(work, "report.json")
        if budget is not None:
            command += [f"--remat-budget={budget}", f"--remat-solver={solver}",
                        f"--remat-report={report_path}"]
            if policy:
                command.append(f"--remat-policy={policy}")
        compiled = subprocess.run(command, capture_output=True, text=True)
        if compiled.returncode != 0:
            raise BuildError(compiled.stderr.strip() or "ckpt-compile failed",
                             _report_error(report_path))
        report = None
        if budget is not None:
            with open(report_path) as f:
                report = json.load(f)
        step = CompiledStep(library, entry)
        args = list(inputs) if inputs is not None else generate(step.inputs, seed)
        seconds, step_peak, outputs = [], 0, None
        for _ in range(iterations):
            start = time.perf_counter()
            outputs = step(*args)
            seconds.append(time.perf_counter() - start)
            step_peak = max(step_peak, step.peak_bytes())
        # The CPU library does not see the caller's inputs; ckpt-run counts
        # them as the runtime allocates them (rounded up to 64 bytes). The
        # CUDA library stages them through the runtime, so they are counted.
        input_bytes = 0
        if step.backend == "cpu":
            for shape, dtype in step.inputs:
                size = int(numpy.prod(shape, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize
                input_bytes += (size + _ALIGNMENT - 1) // _ALIGNMENT * _ALIGNMENT
        return RunResult(outputs=outputs, peak_bytes=step_peak + input_bytes,
                         step_peak_bytes=step_peak,
                         step_time_s=statistics.median(seconds), report=report)
