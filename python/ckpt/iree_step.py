"""ckpt.run(..., backend="iree-cpu"): a step built with IREE's CPU backend.

ckpt-compile --backend=iree-cpu prepares and rematerializes the entry, hands
it to iree-compile and holds the budget in IREE's own measured peak (see
docs/UserGuide.md, "Through IREE"); this module calls the resulting module
with IREE's Python runtime (`iree-base-runtime`, pinned in
scripts/setup-deps.sh) on the local-sync device. The peak is the one
ckpt-compile measured with iree-run-module (DEVICE_LOCAL, the figure the
budget holds): the Python runtime's allocator statistics do not see the
step's transient memory the same way (they stayed equal with and without
remat where iree-run-module's fell by a third).
"""

import json
import os
import statistics
import time

import numpy

from .inputs import generate
from .tools import find_tool


def build_module(module, entry, work, budget=None, solver="auto", policy=None, build=None):
    """Builds `entry` of `module` (MLIR text) with ckpt-compile
    --backend=iree-cpu into the folder `work`, rematerialized to `budget`
    (a fraction or bytes of IREE's own peak) when given. Returns the .vmfb's
    path and the report (ckpt-remat's, with an `iree` object). Raises
    ckpt.execution.BuildError with ckpt-compile's diagnostics."""
    from .execution import remat_flags, run_compile
    source = os.path.join(work, f"{entry}.mlir")
    with open(source, "w") as f:
        f.write(module)
    vmfb = os.path.join(work, f"{entry}.vmfb")
    report_path = os.path.join(work, f"{entry}-report.json")
    command = [find_tool("ckpt-compile", build), source, f"--entry={entry}",
               "--backend=iree-cpu", "-o", vmfb, f"--remat-report={report_path}"]
    run_compile(command + remat_flags(budget, solver, policy), report_path)
    with open(report_path) as f:
        return vmfb, json.load(f)


class IreeStep:
    """`entry` of the IREE module `vmfb`, loaded on the local-sync device
    (one thread): `step(*arrays)` returns the outputs as numpy arrays."""

    def __init__(self, vmfb, entry):
        try:
            import iree.runtime as runtime
        except ImportError as error:
            raise RuntimeError("backend='iree-cpu' needs IREE's runtime: python3 -m pip "
                               "install iree-base-runtime==3.13.0") from error
        self._runtime = runtime
        self._config = runtime.Config("local-sync")
        context = runtime.SystemContext(config=self._config)
        context.add_vm_module(runtime.VmModule.mmap(self._config.vm_instance, vmfb))
        self._function = context.modules.module[entry]
        self._context = context

    def on_device(self, values):
        """`values` (numpy arrays or torch tensors) as the device's arrays,
        to call the step without copying them again."""
        arrays = [value.detach().cpu().numpy() if hasattr(value, "detach") else
                  numpy.asarray(value) for value in values]
        return [self._runtime.asdevicearray(self._config.device, array) for array in arrays]

    def __call__(self, *args):
        results = self._function(*args)
        results = results if isinstance(results, (list, tuple)) else [results]
        return [numpy.asarray(result.to_host()) for result in results]


def run_module(vmfb, entry, arguments, inputs=None, seed=1, iterations=5):
    """Runs `entry` of the IREE module `vmfb` `iterations` times on the
    local-sync device; `arguments` is the report's list of argument shapes
    and dtypes (inputs default to ckpt-run's for `seed`). Returns the
    outputs (numpy arrays) and the median seconds of one call."""
    step = IreeStep(vmfb, entry)
    values = list(inputs) if inputs is not None else generate(arguments, seed)
    device_values = step.on_device(values)
    seconds, outputs = [], None
    for _ in range(iterations):
        start = time.perf_counter()
        outputs = step(*device_values)
        seconds.append(time.perf_counter() - start)
    return outputs, statistics.median(seconds)
