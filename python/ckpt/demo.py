"""python3 -m ckpt demo [--model gpt2|llama|resnet18] [--budgets none,0.5,min]
                      [--steps 20] [--output ckpt-demo.png] [--tiny]

What ckpt is for, on a real model: the same training run (AdamW, the same
batch every step) five ways, one after the other in this process, each on
its own copy of the same initial weights:

- PyTorch eager (`loss.backward()`);
- PyTorch with `torch.utils.checkpoint` around every block (Hugging Face's
  `activation_checkpointing_enable()`, or each block of the model's longest
  run of same-typed layers), what people do today;
- `ckpt.torch.TrainStep` at each budget of `--budgets` (`none`: no remat;
  `0.5`: half of its own peak; `min`: the smallest peak ckpt finds).

It prints one table (measured peak memory, median step time, final loss,
largest loss difference from eager over the run) and writes a picture:
the loss curves, and peak memory against step time per variant.

Peak memory is the bytes the step holds at its fullest, counted the same
way for both: the parameters and the batch, plus what the forward and
backward allocate on top (gradients included; the optimizer's state is
not part of the step). For ckpt that is its runtime's ledger (every
buffer the compiled step allocates); for PyTorch, c10's allocation records
(torch.profiler with profile_memory=True: the allocator's running total at
every allocation and free) over one step. Models are built from small
configs in the package (ckpt.torch.zoo's families); nothing is downloaded.
"""

import argparse
import copy
import statistics
import sys
import time

#: Sizes of the demo's models: activations dominate the step's memory, one
#: step takes tens of milliseconds on one core. `tiny`: for tests.
CONFIGS = {
    "gpt2": ("gpt2-sdpa", dict(batch=8, seq=128, n_layer=4, n_embd=128, n_head=4, vocab=512),
             dict(batch=2, seq=16, n_layer=2, n_embd=16, n_head=2, vocab=32)),
    "llama": ("llama-wide", dict(batch=8, seq=128, vocab=512, hidden_size=128,
                                 intermediate_size=256, num_hidden_layers=4),
              dict(batch=2, seq=16, vocab=32, hidden_size=16, intermediate_size=32,
                   num_hidden_layers=2)),
    "resnet18": ("resnet18", dict(batch=16, size=64), dict(batch=2, size=32)),
}
LEARNING_RATE = 1e-3


class Progress:
    """A one-line counter on standard error: what runs now, and how far."""

    def __init__(self, total, stream=sys.stderr):
        self.total, self.done, self.stream = total, 0, stream
        self.start = time.perf_counter()

    def show(self, text):
        elapsed = time.perf_counter() - self.start
        line = f"[{self.done}/{self.total} steps, {elapsed:5.1f} s] {text}"
        self.stream.write("\r" + line[:100].ljust(100))
        self.stream.flush()

    def step(self, text):
        self.done += 1
        self.show(text)

    def close(self):
        self.stream.write("\r" + " " * 100 + "\r")
        self.stream.flush()


def build_model(name, tiny=False):
    """The demo's `name` model: (model, inputs, targets, loss_fn)."""
    from .torch import zoo
    if name not in CONFIGS:
        raise ValueError(f"unknown model '{name}'; expected one of {', '.join(CONFIGS)}")
    family, sizes, tiny_sizes = CONFIGS[name]
    sizes = tiny_sizes if tiny else sizes
    if family == "llama-wide":
        # The zoo's Llama with its widths and depth chosen here.
        return zoo._language_model(
            "LlamaConfig", "LlamaForCausalLM", num_attention_heads=4, num_key_value_heads=2,
            max_position_embeddings=256, bos_token_id=0, eos_token_id=0, pad_token_id=0,
            **sizes)
    return zoo.ZOO[family](**sizes)


def resident_bytes(model, inputs, targets):
    """Parameters and the batch: what the step reads and holds throughout."""
    tensors = [*model.parameters(), *model.buffers(), *inputs, *targets]
    return sum(t.numel() * t.element_size() for t in tensors)


def allocated_peak(run):
    """Bytes c10's allocator holds at its fullest while `run()` executes,
    above what it held before (torch.profiler's allocation records)."""
    from torch._C._profiler import _EventType
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        run()
    records = []
    stack = list(prof.profiler.kineto_results.experimental_event_tree())
    while stack:
        event = stack.pop()
        stack.extend(event.children)
        if event.tag == _EventType.Allocation:
            records.append((event.start_time_ns, event.extra_fields.alloc_size))
    live = peak = 0
    for _, size in sorted(records):
        live += size
        peak = max(peak, live)
    return peak


def checkpoint_blocks(model):
    """Turns on `torch.utils.checkpoint` around every block of `model`:
    Hugging Face's own switch where the model has one, else each layer of
    its longest run of same-typed child modules (a ResNet's blocks)."""
    import torch
    from torch.utils.checkpoint import checkpoint

    if getattr(model, "supports_gradient_checkpointing", False):
        if hasattr(model, "activation_checkpointing_enable"):  # transformers >= 5.x
            model.activation_checkpointing_enable(
                activation_checkpointing_kwargs={"use_reentrant": False})
        else:
            model.gradient_checkpointing_enable(
                gradient_checkpointing_kwargs={"use_reentrant": False})
        return
    blocks = []
    for module in model.modules():
        if isinstance(module, (torch.nn.Sequential, torch.nn.ModuleList)):
            children = list(module.children())
            if len(children) > 1 and len({type(c) for c in children}) == 1 and \
                    any(p.requires_grad for c in children for p in c.parameters()):
                blocks.extend(children)
    if not blocks:
        raise ValueError("no repeated blocks to checkpoint in "
                         f"{type(model).__name__}")
    for block in blocks:
        forward = block.forward

        def checkpointed(*args, _forward=forward, **kwargs):
            return checkpoint(_forward, *args, use_reentrant=False, **kwargs)
        block.forward = checkpointed


def run_variant(label, model, inputs, targets, loss_fn, steps, progress, step=None):
    """Trains `model` for `steps` AdamW steps on the same batch, with
    `step` (a TrainStep) or eager autograd; returns the row: losses, step
    times and the measured peak."""
    import torch
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE)
    losses, times, peak = [], [], None
    resident = resident_bytes(model, inputs, targets)
    for index in range(steps):
        optimizer.zero_grad(set_to_none=True)
        holder = {}

        def forward_backward():
            if step is not None:
                holder["loss"] = step(*inputs, *targets)
            else:
                loss = loss_fn(model(*inputs), *targets)
                loss.backward()
                holder["loss"] = loss

        start = time.perf_counter()
        if step is None and index == 1:
            # One step under the profiler (its time is not counted).
            peak = resident + allocated_peak(forward_backward)
        else:
            forward_backward()
            if index > 0:
                times.append(time.perf_counter() - start)
        optimizer.step()
        losses.append(float(holder["loss"].detach()))
        progress.step(f"{label}: step {index + 1}/{steps}, loss {losses[-1]:.4f}")
    if step is not None:
        peak = step.peak_bytes
    return {"variant": label, "losses": losses, "peak_bytes": peak,
            "step_time_s": statistics.median(times) if times else float("nan")}


def run(model_name="gpt2", budgets=("none", "0.5", "min"), steps=20, tiny=False,
        threads=None, progress_stream=sys.stderr):
    """The demo's rows (dicts), eager first."""
    import torch
    from .torch import TrainStep

    if threads is not None:
        torch.set_num_threads(threads)
    model, inputs, targets, loss_fn = build_model(model_name, tiny)
    progress = Progress((2 + len(budgets)) * steps, progress_stream)

    def fresh():
        # `model` itself never trains: each variant gets a copy of it.
        return copy.deepcopy(model)

    rows = []
    torch.manual_seed(0)
    rows.append(run_variant("pytorch eager", fresh(), inputs, targets, loss_fn, steps,
                            progress))
    checkpointed = fresh()
    checkpoint_blocks(checkpointed)
    rows.append(run_variant("pytorch + checkpoint", checkpointed, inputs, targets, loss_fn,
                            steps, progress))
    for budget in budgets:
        trained = fresh()
        label = f"ckpt budget={budget}"
        progress.show(f"{label}: exporting and compiling")
        start = time.perf_counter()
        step = TrainStep(trained, loss_fn, inputs, targets,
                         budget=None if budget == "none" else budget,
                         threads=torch.get_num_threads(), on_infeasible="min")
        build_s = time.perf_counter() - start
        row = run_variant(label, trained, inputs, targets, loss_fn, steps, progress, step)
        row["build_s"] = build_s
        report = step.report
        if report is not None:
            function = report["functions"][0]
            row["budget_met"] = function["budget_met"]
            row["recomputed"] = function["recompute_count"]
        rows.append(row)
    progress.close()
    eager = rows[0]["losses"]
    baseline = next((r["peak_bytes"] for r in rows if r["variant"] == "ckpt budget=none"),
                    None)
    for row in rows:
        row["max_loss_difference"] = max(abs(a - b) for a, b in zip(row["losses"], eager))
        row["peak_vs_eager"] = row["peak_bytes"] / rows[0]["peak_bytes"]
        row["time_vs_eager"] = row["step_time_s"] / rows[0]["step_time_s"]
        if baseline and row["variant"].startswith("ckpt"):
            row["peak_vs_ckpt_none"] = row["peak_bytes"] / baseline
    return rows


COLUMNS = ("variant", "peak MiB", "vs eager", "vs ckpt none", "step ms", "vs eager",
           "final loss", "max |loss - eager|")


def table(rows):
    """The rows as an aligned text table (COLUMNS)."""
    lines = [COLUMNS]
    for row in rows:
        variant = row["variant"]
        if row.get("budget_met") is False:
            variant += " (smallest found)"
        ckpt_none = row.get("peak_vs_ckpt_none")
        lines.append((variant, f"{row['peak_bytes'] / 2**20:.2f}", f"{row['peak_vs_eager']:.2f}",
                      f"{ckpt_none:.2f}" if ckpt_none is not None else "-",
                      f"{row['step_time_s'] * 1e3:.1f}", f"{row['time_vs_eager']:.2f}",
                      f"{row['losses'][-1]:.6f}", f"{row['max_loss_difference']:.1e}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(COLUMNS))]
    text = ["  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                      for i, (cell, width) in enumerate(zip(line, widths)))
            for line in lines]
    text.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(text)


def plot(rows, path, title):
    """Writes the picture: loss curves (left), peak memory against step time
    (right)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (losses, memory) = plt.subplots(1, 2, figsize=(12, 4.5))
    for row in rows:
        style = "--" if row["variant"].startswith("pytorch") else "-"
        losses.plot(range(1, len(row["losses"]) + 1), row["losses"], style,
                    label=row["variant"])
        memory.scatter(row["step_time_s"] * 1e3, row["peak_bytes"] / 2**20, s=60,
                       label=row["variant"])
        memory.annotate(row["variant"], (row["step_time_s"] * 1e3, row["peak_bytes"] / 2**20),
                        textcoords="offset points", xytext=(6, 4), fontsize=8)
    losses.set_xlabel("step")
    losses.set_ylabel("loss")
    losses.set_title("training loss (AdamW, same batch)")
    losses.legend(fontsize=8)
    memory.set_xlabel("median step time (ms)")
    memory.set_ylabel("peak memory (MiB)")
    memory.set_title("peak memory vs step time")
    memory.set_ylim(bottom=0)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m ckpt demo",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="gpt2", choices=sorted(CONFIGS))
    parser.add_argument("--budgets", default="none,0.5,min",
                        help="ckpt budgets, comma-separated (none: no remat)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None,
                        help="threads for PyTorch and ckpt alike (default: PyTorch's)")
    parser.add_argument("--output", default="ckpt-demo.png")
    parser.add_argument("--tiny", action="store_true", help="a tiny config (for tests)")
    args = parser.parse_args(argv)
    if args.steps < 2:
        parser.error("--steps must be at least 2 (the first step is not timed)")
    budgets = tuple(b.strip() for b in args.budgets.split(",") if b.strip())
    import torch
    threads = args.threads or torch.get_num_threads()
    started = time.perf_counter()
    rows = run(args.model, budgets, args.steps, args.tiny, threads)
    size = "tiny " if args.tiny else ""
    title = (f"{size}{args.model}: {args.steps} AdamW steps, {threads} thread"
             f"{'s' if threads > 1 else ''}, CPU")
    print(f"{title} ({time.perf_counter() - started:.0f} s in all)")
    print(table(rows))
    plot(rows, args.output, title)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
