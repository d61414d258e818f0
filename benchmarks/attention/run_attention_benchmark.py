#!/usr/bin/env python3
"""Attention benchmark: how a GPT step's measured peak grows with the
sequence length, with its attention fused (`ckpt.attention`) and unfused,
side by side.

Two models (--models):
- `zoo-gpt`: the zoo GPT (`python3 -m ckpt.models transformer` with
  --layers, --d, --heads, --vocab), differentiated by ckpt-autodiff with its
  attention raised (the default; form `fused`) and with `raise-attention=0`
  (form `unfused`);
- `hf-gpt2`: Hugging Face GPT-2 with its default attention (SDPA; random
  init, ckpt.torch.zoo's config with --layers, --hf-d, --heads, --vocab, batch
  --batch), its training step exported by ckpt.torch with fused attention
  (the default; `fused`) and with `fused_attention=False` (SDPA's math form,
  `unfused`). Needs torch, transformers and torch-mlir; its rows also give
  PyTorch eager's step time (forward, loss and backward, SDPA's CPU kernel, on
  --threads threads) and ckpt's time as a multiple of it;
- `hf-gpt2-eager`: the same with GPT-2's `eager` attention (written out:
  matmul, scale, causal mask, softmax, matmul; fused as ckpt.torch
  recognizes it while tracing), against PyTorch eager with that attention.

With `--kernel`, also times causal attention alone (forward and gradient,
one `ckpt.attention` and one `ckpt.attention_grad`, leading dimension 16,
head widths 64 and 12, at each sequence length) with `ckpt-run` against
PyTorch's SDPA (forward and `backward`, its CPU kernel) on the same threads.

For every sequence length in --seqs each form is built and run with
`ckpt-run` (no remat, and the fused form at --budget when given, where
`--compare` checks bit-identity and the budget); prints the measured peak
bytes, the ratio of each peak to the previous sequence length's, the median
step time, and whether any buffer with two sequence dimensions (seq x seq)
is among the largest buffers ckpt-report lists at the peak.

Usage:
  run_attention_benchmark.py [--build build] [--models zoo-gpt,hf-gpt2,hf-gpt2-eager]
      [--seqs 128,256,512] [--layers 2] [--d 64] [--heads 4] [--vocab 64]
      [--batch 4] [--hf-d 48] [--budget 0.8] [--iterations 3] [--threads 1]
      [--gemm codegen|blas] [--kernel]

Needs ckpt-opt and ckpt-run in --build/bin.
"""

import argparse
import functools
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command[:3])} ... failed:\n{result.stderr[-2000:]}")
    return result.stdout


def zoo_gpt_step(args, seq, fused, work):
    """The zoo GPT's step (ckpt-autodiff's), as (path, entry)."""
    forward = run([sys.executable, "-m", "ckpt.models", "transformer",
                   "--layers", str(args.layers), "--seq", str(seq), "--d", str(args.d),
                   "--heads", str(args.heads), "--vocab", str(args.vocab)],
                  env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    step = os.path.join(work, f"gpt-{seq}-{'fused' if fused else 'unfused'}.mlir")
    option = "" if fused else " raise-attention=0"
    run([os.path.join(args.build, "bin", "ckpt-opt"), f"--ckpt-autodiff=function=loss{option}",
         "-o", step], input=forward)
    return step, "loss_grad"


def hf_gpt2(args, seq, attention):
    """HF GPT-2 at `seq` with `attention` ("sdpa" or "eager"): (model,
    inputs, targets, loss_fn)."""
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from ckpt.torch.zoo import gpt2
    return gpt2(attention=attention, seq=seq, batch=args.batch, vocab=args.vocab,
                n_layer=args.layers, n_embd=args.hf_d, n_head=args.heads)


def hf_gpt2_step(args, seq, fused, work, attention="sdpa"):
    """HF GPT-2's training step exported by ckpt.torch, as (path, entry)."""
    from ckpt.torch import export_training_step
    model, inputs, targets, loss_fn = hf_gpt2(args, seq, attention)
    exported = export_training_step(model, inputs, loss_fn, targets=targets,
                                    fused_attention=fused)
    step = os.path.join(work, f"hf-gpt2-{attention}-{seq}-{'fused' if fused else 'unfused'}.mlir")
    with open(step, "w") as f:
        f.write(exported.mlir)
    return step, exported.entry


def eager_step_seconds(args, seq, attention):
    """PyTorch eager's median training-step time for HF GPT-2 at `seq`
    with `attention` (SDPA: its default CPU kernel), on --threads threads."""
    import time

    import torch
    torch.set_num_threads(args.threads)
    model, inputs, targets, loss_fn = hf_gpt2(args, seq, attention)
    times = []
    for _ in range(args.iterations + 1):
        start = time.perf_counter()
        model.zero_grad(set_to_none=True)
        loss_fn(model(*inputs), *targets).backward()
        times.append(time.perf_counter() - start)
    return sorted(times[1:])[len(times[1:]) // 2]


STEPS = {"zoo-gpt": zoo_gpt_step, "hf-gpt2": hf_gpt2_step,
         "hf-gpt2-eager": functools.partial(hf_gpt2_step, attention="eager")}


def attention_alone(heads, seq, width):
    """A function computing causal attention and its gradient (returns O,
    dQ, dK, dV) on [heads, seq, width] f32 operands."""
    t = f"tensor<{heads}x{seq}x{width}xf32>"
    lse = f"tensor<{heads}x{seq}xf32>"
    scale = 1.0 / width ** 0.5
    return f"""func.func @attend(%q: {t}, %k: {t}, %v: {t}, %do: {t}) -> ({t}, {t}, {t}, {t}) {{
  %e = tensor.empty() : {t}
  %el = tensor.empty() : {lse}
  %o, %lse = ckpt.attention causal scale({scale}) ins(%q, %k, %v : {t}, {t}, {t}) outs(%e, %el : {t}, {lse}) -> {t}, {lse}
  %e1 = tensor.empty() : {t}
  %e2 = tensor.empty() : {t}
  %e3 = tensor.empty() : {t}
  %dq, %dk, %dv = ckpt.attention_grad causal scale({scale}) ins(%q, %k, %v, %o, %lse, %do : {t}, {t}, {t}, {t}, {lse}, {t}) outs(%e1, %e2, %e3 : {t}, {t}, {t}) -> {t}, {t}, {t}
  return %o, %dq, %dk, %dv : {t}, {t}, {t}, {t}
}}
"""


def kernel_table(args, seqs, work):
    """Causal attention alone: ckpt's fused ops against PyTorch's SDPA."""
    import time

    import torch
    torch.set_num_threads(args.threads)
    heads = 16
    print(f"\ncausal attention alone, forward + gradient, {heads} x seq x width, f32, "
          f"{args.threads} thread(s), median of {args.iterations}")
    print(f"{'width':>6} {'seq':>5} {'ckpt_ms':>9} {'sdpa_ms':>9} {'x sdpa':>7}")
    for width in (64, 12):
        for seq in seqs:
            path = os.path.join(work, f"attention-{seq}-{width}.mlir")
            with open(path, "w") as f:
                f.write(attention_alone(heads, seq, width))
            out = run([os.path.join(args.build, "bin", "ckpt-run"), path, "--entry=attend",
                       f"--iterations={args.iterations}", f"--num-threads={args.threads}"])
            ckpt_s = float(re.search(r"median_step_time_s=(\S+)", out).group(1))
            q, k, v = (torch.randn(heads, seq, width, requires_grad=True) for _ in range(3))
            grad = torch.randn(heads, seq, width)
            times = []
            for _ in range(args.iterations + 1):
                start = time.perf_counter()
                torch.nn.functional.scaled_dot_product_attention(
                    q, k, v, is_causal=True).backward(grad)
                times.append(time.perf_counter() - start)
            sdpa_s = sorted(times[1:])[len(times[1:]) // 2]
            print(f"{width:>6} {seq:>5} {ckpt_s * 1e3:>9.1f} {sdpa_s * 1e3:>9.1f} "
                  f"{ckpt_s / sdpa_s:>7.2f}", flush=True)


def measure(args, model, seq, fused, budget, work):
    step, entry = STEPS[model](args, seq, fused, work)
    report = run([os.path.join(args.build, "bin", "ckpt-opt"), step, "--ckpt-tensor-prep",
                  f"--ckpt-report=functions={entry}", "-o", os.devnull])
    largest = report.split("largest buffers alive at the peak:")[-1]
    square = f"x{seq}x{seq}x" in largest
    command = [os.path.join(args.build, "bin", "ckpt-run"), step, f"--entry={entry}",
               f"--iterations={args.iterations}", f"--num-threads={args.threads}",
               f"--gemm={args.gemm}"]
    if budget:
        command += ["--compare", f"--remat-budget={budget}"]
    out = run(command)
    if budget:
        baseline = re.search(r"baseline: median_step_time_s=(\S+) peak_bytes=(\d+)", out)
        remat = re.search(r"remat: .*?peak_bytes=(\d+)", out)
        checks = re.search(r"outputs_identical=(\w+) within_budget=(\w+)", out)
        return (int(baseline.group(2)), float(baseline.group(1)), square,
                int(remat.group(1)), checks.group(1) == "yes" and checks.group(2) == "yes")
    peak = int(re.search(r"peak_bytes=(\d+)", out).group(1))
    seconds = float(re.search(r"median_step_time_s=(\S+)", out).group(1))
    return peak, seconds, square, None, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", default="zoo-gpt,hf-gpt2,hf-gpt2-eager")
    parser.add_argument("--seqs", default="128,256,512")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--vocab", type=int, default=64)
    parser.add_argument("--batch", type=int, default=4, help="hf-gpt2's batch")
    # GPT-2's MLP is 4 x d wide: at d 64 its (batch, seq, 256) buffers would
    # look like seq x seq ones at seq 256.
    parser.add_argument("--hf-d", type=int, default=48, help="hf-gpt2's width")
    parser.add_argument("--gemm", default="codegen", choices=("codegen", "blas"))
    parser.add_argument("--budget", default=None,
                        help="also build the raised step at this budget (ckpt-run --compare)")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--kernel", action="store_true",
                        help="also time causal attention alone against PyTorch's SDPA")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    seqs = [int(s) for s in args.seqs.split(",")]
    models = args.models.split(",")
    if set(models) - set(STEPS):
        parser.error(f"--models: choose among {', '.join(STEPS)}")
    print(f"{args.layers} layers, {args.heads} heads, vocab {args.vocab}; zoo-gpt: d {args.d}; "
          f"hf-gpt2: d {args.hf_d}, batch {args.batch}; ckpt-run --gemm={args.gemm}, "
          f"{args.threads} thread(s), median of {args.iterations}")
    header = (f"{'model':>13} {'seq':>5} {'form':>8} {'peak_bytes':>12} {'x prev':>7} "
              f"{'step_ms':>9} {'seq^2 at peak':>14}")
    if args.budget:
        header += f" {'peak@' + args.budget:>12} {'identical+within':>17}"
    print(header + f" {'eager_ms':>9} {'x eager':>8}")
    with tempfile.TemporaryDirectory(prefix="ckpt-attention-") as work:
        for model in models:
            previous = {}
            for seq in seqs:
                eager = None
                if model.startswith("hf-gpt2"):
                    eager = eager_step_seconds(args, seq, "eager" if model.endswith("eager")
                                               else "sdpa")
                for fused in (True, False):
                    form = "fused" if fused else "unfused"
                    budget = args.budget if fused else None
                    peak, seconds, square, remat_peak, ok = measure(args, model, seq, fused,
                                                                    budget, work)
                    growth = f"{peak / previous[form]:.2f}" if form in previous else "-"
                    previous[form] = peak
                    line = (f"{model:>13} {seq:>5} {form:>8} {peak:>12} {growth:>7} "
                            f"{seconds * 1e3:>9.1f} {'yes' if square else 'no':>14}")
                    if args.budget:
                        line += (f" {remat_peak:>12} {'yes' if ok else 'NO':>17}"
                                 if remat_peak is not None else f" {'':>12} {'':>17}")
                    if eager:
                        line += f" {eager * 1e3:>9.1f} {seconds / eager:>8.2f}"
                    print(line, flush=True)
        if args.kernel:
            kernel_table(args, seqs, work)

if __name__ == "__main__":
    main()
