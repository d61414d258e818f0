#!/usr/bin/env python3
"""ckpt's smallest peak against PyTorch + `checkpoint` per layer (SDPA), on the CPU.

The attention issue's memory target asks for ckpt's minimum peak at most
0.8x PyTorch + `torch.utils.checkpoint`-per-block's on the GPT-2-small shape
(12 blocks, d 768, 12 heads, batch 4) at seq 1024 and 4096. This script
measures both sides on this machine's CPU, side by side in one run:

- ckpt: the zoo's GPT-style stack (`python3 -m ckpt.models transformer
  --batch B`, regression head), differentiated by `ckpt-autodiff` (attention
  raised to `ckpt.attention`), run by `ckpt-run --compare
  --remat-budget=min`: the peak libckpt_runtime measures without remat and
  at `min`, with its checks (outputs bit-identical, peak within budget,
  forecast error);
- PyTorch: the same model written in PyTorch (`ckpt.gpu.torch_gpt`, the GPU
  package's reference, checked equal to ckpt's build by
  `python/tests/test_gpu_reference_models.py`) with
  `torch.utils.checkpoint` around every block and attention through
  `scaled_dot_product_attention`, one training step under
  `torch.distributed._tools.mem_tracker.MemTracker` (every tensor storage
  from creation to release, parameters, inputs and gradients included: the
  CPU's counterpart of `torch.cuda.max_memory_allocated`, without the CUDA
  caching allocator's rounding and cuBLAS workspaces); `--eager` adds the
  step without checkpointing.

    python3 benchmarks/attention/memory_vs_checkpoint.py [--seqs 1024,4096] \
        [--layers 12 --d 768 --heads 12 --batch 4] [--threads 2] [--eager]

Prints one row per sequence length with ckpt's baseline and `min` peaks,
PyTorch's peak(s), and ckpt min / PyTorch + checkpoint (target <= 0.8);
exits 1 when ckpt-run's checks fail.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from ckpt import tools  # noqa: E402


def ckpt_peaks(layers, seq, d, heads, batch, threads, folder):
    """Runs the zoo stack without remat and at budget=min; returns the
    measured peaks, the step-time ratio and whether ckpt-run's checks hold."""
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "..", "python"))
    source = subprocess.run(
        [sys.executable, "-m", "ckpt.models", "transformer", "--layers", str(layers),
         "--seq", str(seq), "--d", str(d), "--heads", str(heads), "--batch", str(batch)],
        check=True, capture_output=True, text=True, env=env).stdout
    step = os.path.join(folder, f"gpt-{seq}.mlir")
    subprocess.run([tools.find_tool("ckpt-opt"), "--ckpt-autodiff", "-o", step],
                   input=source, check=True, capture_output=True, text=True)
    run = subprocess.run(
        [tools.find_tool("ckpt-run"), step, "--entry=loss_grad", "--iterations=1",
         "--compare", "--remat-budget=min", "--gemm=blas", f"--num-threads={threads}"],
        capture_output=True, text=True)
    text = run.stdout + run.stderr
    baseline = re.search(r"baseline: .*peak_bytes=(\d+)", text)
    remat = re.search(r"remat: .* peak_bytes=(\d+)", text)
    checks = re.search(r"step_time_ratio=(\S+) .*estimate_error=(\S+) "
                       r"outputs_identical=(\w+) within_budget=(\w+)", text)
    if run.returncode != 0 or not (baseline and remat and checks):
        raise RuntimeError(f"ckpt-run failed at seq {seq}:\n{text[-2000:]}")
    return {"baseline": int(baseline.group(1)), "min": int(remat.group(1)),
            "time_ratio": float(checks.group(1)), "estimate_error": checks.group(2),
            "passed": checks.group(3) == "yes" and checks.group(4) == "yes"}


def torch_peak(layers, seq, d, heads, batch, checkpoint, threads):
    """PyTorch's peak tensor bytes of one training step on the CPU."""
    import torch
    from torch.distributed._tools.mem_tracker import MemTracker
    from ckpt.gpu import torch_gpt

    torch.set_num_threads(threads)
    params = torch_gpt.make_parameters(layers, d, "cpu", 1)
    generator = torch.Generator().manual_seed(2)
    x = (torch.rand(batch * seq, d, generator=generator) * 2 - 1).requires_grad_()
    target = torch.rand(batch * seq, d, generator=generator) * 2 - 1
    tracker = MemTracker()
    tracker.track_external(*[t for p in params for t in p.values()], x, target)
    with tracker:
        torch_gpt.step(x, target, params, heads, checkpoint, sdpa=True, batch=batch)
    peak = tracker.get_tracker_snapshot("peak")
    return sum(stats.get("Total", 0) for stats in peak.values())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seqs", default="1024,4096")
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--d", type=int, default=768)
    parser.add_argument("--heads", type=int, default=12)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--eager", action="store_true",
                        help="also PyTorch's step without checkpointing")
    args = parser.parse_args()
    print(f"GPT stack: {args.layers} blocks, d {args.d}, {args.heads} heads, "
          f"batch {args.batch}; CPU, {args.threads} threads; bytes")
    header = (f"{'seq':>6} {'ckpt baseline':>14} {'ckpt min':>12} {'torch+ckpt':>12}"
              + (f" {'torch eager':>12}" if args.eager else "")
              + f" {'min/torch+ckpt':>15} {'target':>7} {'checks':>7} {'s':>6}")
    print(header)
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for seq in (int(s) for s in args.seqs.split(",")):
            start = time.time()
            ours = ckpt_peaks(args.layers, seq, args.d, args.heads, args.batch,
                              args.threads, folder)
            theirs = torch_peak(args.layers, seq, args.d, args.heads, args.batch,
                                True, args.threads)
            eager = (torch_peak(args.layers, seq, args.d, args.heads, args.batch,
                                False, args.threads) if args.eager else None)
            ratio = ours["min"] / theirs
            failed |= not ours["passed"]
            print(f"{seq:>6} {ours['baseline']:>14} {ours['min']:>12} {theirs:>12}"
                  + (f" {eager:>12}" if args.eager else "")
                  + f" {ratio:>15.3f} {'ok' if ratio <= 0.8 else 'miss':>7}"
                  f" {'ok' if ours['passed'] else 'FAILED':>7} {time.time() - start:>6.0f}",
                  flush=True)
            print(f"       (ckpt min: step {ours['time_ratio']:.3f}x its baseline's, "
                  f"forecast error {ours['estimate_error']})", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
