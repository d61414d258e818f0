#!/usr/bin/env python3
"""ckpt's planner inside torch.compile against PyTorch's own partitioner.

For each model, in one run: PyTorch eager; torch.compile (Inductor) with
PyTorch's partitioner at `activation_memory_budget` 0.1 ... 0.9 (and 1.0,
its default); and torch.compile with ckpt.torch.compile_backend asked for
the peak each PyTorch budget reached (bytes). Both use Inductor's kernels;
only the forward/backward split differs.

    PYTHONPATH=python python3 benchmarks/compile/run_compile_benchmark.py \\
        [--models mlp,encoder,gpt2,llama,bert,resnet18] [--threads 2] [--json OUT]

Columns per variant: `peak` (bytes above the live arguments while the step
runs, by c10's allocation records: ckpt.torch.partitioner.measured_peak_bytes),
`saved` (bytes of the tensors saved for the backward, by
saved_tensors_hooks, parameters and inputs excluded), `recomputed_gflop`
(FLOPs of the forward nodes the backward graph recomputes, by
torch.utils.flop_counter's formulas), `step_ms` (median of --steps steps
after two), `compile_s` (the first step), `grad_err` (largest normwise
distance of a parameter's gradient from eager's, the norm floored at 1e-3
of the whole gradient's). Ratios at each PyTorch budget: ckpt's recomputed
FLOPs over PyTorch's, ckpt's step time over PyTorch's, ckpt's compile time
over torch.compile's default, and whether ckpt's peak met its bytes budget.
"""

import argparse
import copy
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402

import ckpt.torch  # noqa: E402
from ckpt.torch import partitioner  # noqa: E402

TORCH_BUDGETS = [0.1, 0.3, 0.5, 0.7, 0.9]


def _mse(target):
    return lambda output: (output - target).square().mean()


def mlp():
    torch.manual_seed(0)
    layers = []
    for _ in range(8):
        layers += [torch.nn.Linear(256, 256), torch.nn.GELU()]
    x = torch.randn(512, 256)
    return torch.nn.Sequential(*layers), (x,), (), _mse(torch.randn(512, 256))


def encoder():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, dropout=0.0, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, 6, enable_nested_tensor=False)
    x = torch.randn(8, 128, 256)
    return model, (x,), (), _mse(torch.randn(8, 128, 256))


def _zoo(name, **sizes):
    from ckpt.torch.zoo import ZOO
    return lambda: ZOO[name](**sizes)


MODELS = {
    "mlp": mlp,
    "encoder": encoder,
    "gpt2": _zoo("gpt2-sdpa", batch=8, seq=128, vocab=512, n_layer=4, n_embd=128, n_head=4),
    "llama": _zoo("llama", batch=8, seq=128, vocab=512),
    "bert": _zoo("bert", batch=8, seq=128, vocab=512),
    "resnet18": _zoo("resnet18", batch=16, size=64),
}


class RecordingPartitioner:
    """PyTorch's partitioner as Inductor runs it, recording the split."""

    def __init__(self):
        self.reports = []

    def make(self):
        from torch._inductor.custom_graph_pass import CustomPartitionerFn
        outer = self

        class Recording(CustomPartitionerFn):
            def __call__(self, gm, joint_inputs, **kwargs):
                from torch._functorch.partitioners import min_cut_rematerialization_partition
                kwargs.pop("compiler", None)
                forward, backward = min_cut_rematerialization_partition(
                    gm, joint_inputs, compiler="inductor", **kwargs)
                outer.reports.append(partitioner.split_report(forward, backward))
                return forward, backward

            def uuid(self):
                return None

            def __reduce__(self):
                return (str, ("pytorch-partitioner",))

        return Recording()


def _pytorch_backend(budget, recorder):
    from torch._inductor.compile_fx import compile_fx

    def backend(gm, example_inputs):
        import torch._functorch.config as functorch_config
        with functorch_config.patch(activation_memory_budget=budget):
            return compile_fx(gm, example_inputs, config_patches={
                "custom_partitioner_fn": recorder.make(), "force_disable_caches": True})
    return backend


def _gradients(model):
    return [p.grad.detach().clone() if p.grad is not None else torch.zeros_like(p)
            for p in model.parameters()]


def _error(grads, reference):
    whole = torch.cat([g.flatten() for g in reference]).norm().item()
    return max(((g - r).norm() / max(r.norm().item(), 1e-3 * whole)).item()
               for g, r in zip(grads, reference))


def run_variant(build, compiled_of, steps):
    """Compiles and runs one variant (`compiled_of(step, model, inputs)`
    gives what runs the step: the model's forward and the loss, one graph);
    returns its measurements."""
    model, inputs, targets, loss_fn = build()
    torch._dynamo.reset()
    runner = compiled_of(lambda *args: loss_fn(model(*args), *targets), model, inputs)
    params = {p.data_ptr() for p in model.parameters()} | {x.data_ptr() for x in inputs}

    def step():
        for p in model.parameters():
            p.grad = None
        loss = runner(*inputs)
        loss.backward()
        return loss

    started = time.perf_counter()
    step()
    compile_s = time.perf_counter() - started
    grads = _gradients(model)
    step()
    times = []
    for _ in range(steps):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    for p in model.parameters():
        p.grad = None
    peak = partitioner.measured_peak_bytes(lambda: runner(*inputs).backward())
    saved = [0]

    def pack(tensor):
        if tensor.data_ptr() not in params:
            saved[0] += tensor.numel() * tensor.element_size()
        return tensor

    for p in model.parameters():
        p.grad = None
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        runner(*inputs).backward()
    return {"peak": peak, "saved": saved[0], "step_ms": 1e3 * statistics.median(times),
            "compile_s": compile_s, "grads": grads}


def benchmark(name, steps):
    build = MODELS[name]
    rows = {}
    eager = run_variant(build, lambda step, m, inputs: step, steps)
    reference = eager.pop("grads")
    eager["grad_err"] = 0.0
    eager["recomputed_gflop"] = 0.0
    rows["eager"] = eager
    for budget in [1.0] + TORCH_BUDGETS:
        recorder = RecordingPartitioner()
        row = run_variant(build, lambda step, m, inputs: torch.compile(
            step, backend=_pytorch_backend(budget, recorder)), steps)
        row["grad_err"] = _error(row.pop("grads"), reference)
        row["recomputed_gflop"] = sum(r["recomputed_flops"] for r in recorder.reports) / 1e9
        row["graphs"] = len(recorder.reports)
        rows[f"torch {budget}"] = row
        print(name, f"torch {budget}", _line(row), flush=True)
        if budget == 1.0:
            continue
        backends = []

        def with_ckpt(step, model, inputs, peak=row["peak"]):
            # The budget: PyTorch's peak above the arguments, plus the
            # arguments as ckpt's planner counts them (parameters, buffers
            # and inputs, alive throughout).
            arguments = sum(t.numel() * t.element_size() for t in
                            [*model.parameters(), *model.buffers(), *inputs])
            backend = ckpt.torch.compile_backend(budget=f"{peak + arguments}B", fallback=True)
            backends.append(backend)
            return torch.compile(step, backend=backend)

        try:
            ours = run_variant(build, with_ckpt, steps)
        except Exception as error:  # a plan that does not exist: reported
            rows[f"ckpt@{budget}"] = {"error": str(error).splitlines()[0][:200]}
            print(name, f"ckpt@{budget}", rows[f"ckpt@{budget}"], flush=True)
            continue
        reports = backends[0].reports
        ours["grad_err"] = _error(ours.pop("grads"), reference)
        ours["recomputed_gflop"] = sum(r.get("recomputed_flops", 0) for r in reports) / 1e9
        ours["graphs"] = len(reports)
        ours["fallback"] = any(r.get("fallback") for r in reports)
        ours["budget_peak"] = row["peak"]
        rows[f"ckpt@{budget}"] = ours
        print(name, f"ckpt@{budget}", _line(ours), flush=True)
    return rows


def _line(row):
    return " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                    for k, v in row.items())


def ratios(rows):
    """Per PyTorch budget: ckpt's recomputed FLOPs, step and compile time
    over PyTorch's, and whether ckpt's measured peak met PyTorch's."""
    out = {}
    default = rows["torch 1.0"]["compile_s"]
    for budget in TORCH_BUDGETS:
        theirs, ours = rows[f"torch {budget}"], rows.get(f"ckpt@{budget}", {})
        if "peak" not in ours:
            out[budget] = {"error": ours.get("error", "missing")}
            continue
        flops = (ours["recomputed_gflop"] / theirs["recomputed_gflop"]
                 if theirs["recomputed_gflop"] > 0 else
                 (0.0 if ours["recomputed_gflop"] == 0 else float("inf")))
        out[budget] = {
            "flops_vs_torch": flops,
            "time_vs_torch": ours["step_ms"] / theirs["step_ms"],
            "compile_vs_default": ours["compile_s"] / default,
            "peak_met": ours["peak"] <= theirs["peak"],
            "peak_vs_torch": ours["peak"] / theirs["peak"],
        }
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    # Inductor's one-time start-up (its worker pool, the C++ toolchain
    # probe) is paid here, not by the first variant's compile time.
    warm = torch.compile(lambda a: (a * 2).sum())
    warm(torch.ones(4, requires_grad=True)).backward()
    results = {"threads": args.threads, "torch": torch.__version__, "models": {}}
    for name in args.models.split(","):
        rows = benchmark(name, args.steps)
        results["models"][name] = {"rows": rows, "ratios": ratios(rows)}
        for budget, ratio in results["models"][name]["ratios"].items():
            print(name, f"at torch {budget}:", _line(ratio), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
