"""A compiled training step that behaves like `loss.backward()`:
ckpt.torch.TrainStep.

    step = TrainStep(model, loss_fn, (x,), (y,), budget="0.5")
    optimizer = torch.optim.AdamW(model.parameters())
    for x, y in batches:
        optimizer.zero_grad()
        loss = step(x, y)
        optimizer.step()
    step.peak_bytes, step.report

Mixed precision works as in eager PyTorch: the autocast context around the
call applies to the forward and the loss (reductions into bf16/f16
accumulate in f32, as PyTorch's do), and a GradScaler scales the backward:

    scaler = torch.amp.GradScaler("cpu")
    step = TrainStep(model, loss_fn, (x,), (y,), grad_scaler=scaler)
    for x, y in batches:
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = step(x, y)
        scaler.step(optimizer)   # skipped when a gradient is inf or nan
        scaler.update()

The step is exported (ckpt.torch.export) and built ahead of time with
ckpt-compile (rematerialized to `budget` when given) the first time a
combination of input shapes and dtypes, `model.training`, the autocast
dtype and the set of parameters that require grad is seen; later calls
with the same combination reuse the build. A call reads the model's
current parameters and buffers, runs forward and backward in one compiled
function, adds every gradient into `p.grad` (creating it when it is None,
as autograd does; parameters the loss does not depend on keep theirs),
writes the new value of every buffer the step updates into the buffer
(once per call: recomputation never repeats an update, unlike a runtime
wrapper that reruns the forward) and returns the loss as a tensor.
"""

import os
import tempfile

from ..aot import CompiledStep
from ..execution import build_library, input_bytes
from .export import export_training_step


class TrainStep:
    """`loss = step(*inputs, *targets)` runs `loss_fn(model(*inputs),
    *targets)` forward and backward as one compiled function (see the
    module's documentation). `budget`, `solver` and `policy` are
    ckpt-remat's (`"0.5"`, `"2GiB"`, `"min"`; None: no remat), and
    `on_infeasible="min"` builds the smallest peak found when no schedule
    meets the budget (`step.report["functions"][0]["budget_met"]` is then
    false) instead of raising BuildError; `backend`
    is `cpu` or `cuda`; `gemm` is the CPU build's matmul path (`blas`:
    oneDNN/OpenBLAS, `codegen`: generated loops); `threads` the CPU
    build's thread count (default: PyTorch's, `torch.get_num_threads()`).
    `grad_scaler` is a `torch.amp.GradScaler` for mixed precision: the
    backward starts from its current scale (`scaler.scale(loss).backward()`),
    so `scaler.step(optimizer)` and `scaler.update()` work unchanged, steps
    whose gradients overflow included; a disabled scaler changes nothing.
    `verify=True` checks the first call of every build against eager
    autograd in float64 (ckpt.torch.verify) and raises VerificationError
    naming the worst parameter when the compiled step is further from it
    than eager float32 is (steps without random ops or autocast)."""

    def __init__(self, model, loss_fn, example_inputs, example_targets=(), budget=None,
                 solver="auto", backend="cpu", policy=None, gemm="blas", build=None,
                 threads=None, grad_scaler=None, on_infeasible="error", verify=False):
        if backend not in ("cpu", "cuda"):
            raise ValueError(f"backend must be 'cpu' or 'cuda', not {backend!r}")
        if threads is None:
            import torch
            threads = torch.get_num_threads() if backend == "cpu" else 1
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        self.threads = threads if backend == "cpu" else 1
        self.model = model
        self.loss_fn = loss_fn
        self.budget = budget
        self.solver = solver
        self.backend = backend
        self.policy = policy
        self.on_infeasible = on_infeasible
        self.verify = bool(verify)
        #: With verify: the last check's rows (parameter or `loss`, its
        #: normwise distance from eager float64, eager's own), worst first.
        self.verification = None
        self.gemm = gemm if backend == "cpu" else "codegen"
        if grad_scaler is not None and not hasattr(grad_scaler, "scale"):
            raise TypeError(f"grad_scaler must be a torch.amp.GradScaler, not {grad_scaler!r}")
        self.grad_scaler = grad_scaler if grad_scaler is not None and \
            grad_scaler.is_enabled() else None
        self._build = build
        self._work = tempfile.TemporaryDirectory(prefix="ckpt-train-step-")
        self._num_inputs = len(example_inputs)
        self._compiled = {}
        self._last = None
        #: Peak bytes of the last call as ckpt-run counts them (the step's
        #: buffers plus its inputs); None before the first call.
        self.peak_bytes = None
        self._compile(tuple(example_inputs), tuple(example_targets))

    @property
    def report(self):
        """ckpt-remat's report (a dict) of the build the last call used (of
        the first build before any call); None without a budget."""
        return (self._last or next(iter(self._compiled.values())))["report"]

    @property
    def exported(self):
        """The ExportedStep of the build the last call used (of the first
        build before any call)."""
        return (self._last or next(iter(self._compiled.values())))["exported"]

    def _key(self, inputs, targets):
        import torch
        autocast = None
        device = "cuda" if self.backend == "cuda" else "cpu"
        if torch.is_autocast_enabled(device):
            autocast = str(torch.get_autocast_dtype(device))
        trainable = frozenset(n for n, p in self.model.named_parameters() if p.requires_grad)
        shapes = tuple((tuple(t.shape), str(t.dtype)) for t in inputs + targets)
        return shapes, self.model.training, autocast, trainable

    def _compile(self, inputs, targets):
        key = self._key(inputs, targets)
        if key in self._compiled:
            return self._compiled[key]
        exported = export_training_step(self.model, inputs, self.loss_fn, targets=targets,
                                        loss_scale=self.grad_scaler is not None)
        work = os.path.join(self._work.name, f"build{len(self._compiled)}")
        os.makedirs(work)
        library, report = build_library(exported.mlir, exported.entry, work,
                                        backend=self.backend, budget=self.budget,
                                        solver=self.solver, policy=self.policy,
                                        build=self._build, gemm=self.gemm,
                                        threads=self.threads,
                                        on_infeasible=self.on_infeasible)
        entry = {"exported": exported, "report": report,
                 "library": CompiledStep(library, exported.entry)}
        self._compiled[key] = entry
        return entry

    def __call__(self, *args, seed=None):
        """Runs the step on `args` (the inputs, then the targets); a step
        with random ops (dropout) draws them from `seed` (an int; None: a
        new one from torch's default generator each call)."""
        import torch
        if len(args) < self._num_inputs:
            raise TypeError(f"TrainStep takes {self._num_inputs} inputs and then the targets, "
                            f"got {len(args)} arguments")
        inputs, targets = tuple(args[:self._num_inputs]), tuple(args[self._num_inputs:])
        build = self._compile(inputs, targets)
        exported, library = build["exported"], build["library"]
        loss_scale = None
        if self.grad_scaler is not None:
            # The scale as scaler.scale() multiplies by (a float32 tensor);
            # the call also creates it on the first step, which unscale_
            # and step() need.
            loss_scale = self.grad_scaler.scale(
                torch.ones((), dtype=torch.float32, device=self._loss_device(inputs)))
        arguments = exported.argument_tensors(self.model, inputs, targets, seed, loss_scale)
        if self.backend == "cuda":
            arguments = [a.cuda() for a in arguments]
        outputs = library(*arguments)
        self._last = build
        self.peak_bytes = library.peak_bytes() + input_bytes(library)

        parameters = dict(self.model.named_parameters(remove_duplicate=False))
        buffers = dict(self.model.named_buffers(remove_duplicate=False))
        names = exported.result_names
        if self.verify and not build.get("verified"):
            self._verify(exported, inputs, targets, outputs)
            build["verified"] = True
        with torch.no_grad():
            for name, value in zip(names[1:], outputs[1:]):
                kind, key = name.split(":", 1)
                if kind == "grad":
                    parameter = parameters[key]
                    value = value.to(device=parameter.device, dtype=parameter.dtype)
                    if parameter.grad is None:
                        parameter.grad = value
                    else:
                        parameter.grad.add_(value)
                else:
                    buffer = buffers[key]
                    buffer.copy_(value.to(device=buffer.device, dtype=buffer.dtype))
        loss = outputs[0]
        return loss.to(device=self._loss_device(inputs))

    def _verify(self, exported, inputs, targets, outputs):
        """ckpt.torch.verify.check on this call's results, before the model
        is updated."""
        import torch
        from . import verify
        if exported.random or exported.scaled:
            raise ValueError("TrainStep(verify=True) checks steps without random ops or a "
                             "GradScaler: eager autograd cannot reproduce them")
        device = "cuda" if self.backend == "cuda" else "cpu"
        if torch.is_autocast_enabled(device):
            raise ValueError("TrainStep(verify=True) checks steps outside torch.autocast")
        gradients = {name[len("grad:"):]: value.detach().cpu()
                     for name, value in zip(exported.result_names, outputs)
                     if name.startswith("grad:")}
        self.verification = verify.check(self.model, self.loss_fn, inputs, targets,
                                         outputs[0].detach().cpu(), gradients)

    def _loss_device(self, inputs):
        first = next((t for t in inputs if hasattr(t, "device")), None)
        return first.device if first is not None else "cpu"
