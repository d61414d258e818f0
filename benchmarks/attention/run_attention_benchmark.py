#!/usr/bin/env python3
"""Attention benchmark: how the zoo GPT's measured peak grows with the
sequence length, with its attention raised to ckpt.attention (the default of
ckpt-autodiff) and kept unfused (`raise-attention=0`), side by side.

For every sequence length in --seqs, the zoo GPT (`python3 -m ckpt.models
transformer` with --layers, --d, --heads, --vocab) is differentiated both
ways, built and run with `ckpt-run` (no remat, and at --budget when given,
where `--compare` checks bit-identity and the budget); prints the measured
peak bytes, the ratio of each peak to the previous sequence length's, the
median step time, and whether any buffer with two sequence dimensions
(heads x seq x seq) is among the largest buffers ckpt-report lists at the
peak.

Usage:
  run_attention_benchmark.py [--build build] [--seqs 128,256,512]
      [--layers 2] [--d 64] [--heads 4] [--vocab 64] [--budget 0.8]
      [--iterations 3] [--threads 1]

Python 3 standard library only; needs ckpt-opt and ckpt-run in --build/bin.
"""

import argparse
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


def measure(args, seq, raised, budget, work):
    forward = run([sys.executable, "-m", "ckpt.models", "transformer",
                   "--layers", str(args.layers), "--seq", str(seq), "--d", str(args.d),
                   "--heads", str(args.heads), "--vocab", str(args.vocab)],
                  env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    step = os.path.join(work, f"gpt-{seq}-{'raised' if raised else 'unfused'}.mlir")
    option = "" if raised else " raise-attention=0"
    run([os.path.join(args.build, "bin", "ckpt-opt"), f"--ckpt-autodiff=function=loss{option}",
         "-o", step], input=forward)
    report = run([os.path.join(args.build, "bin", "ckpt-opt"), step, "--ckpt-tensor-prep",
                  "--ckpt-report=functions=loss_grad", "-o", os.devnull])
    largest = report.split("largest buffers alive at the peak:")[-1]
    square = f"x{seq}x{seq}x" in largest
    command = [os.path.join(args.build, "bin", "ckpt-run"), step, "--entry=loss_grad",
               f"--iterations={args.iterations}", f"--num-threads={args.threads}"]
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
    parser.add_argument("--seqs", default="128,256,512")
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--vocab", type=int, default=64)
    parser.add_argument("--budget", default=None,
                        help="also build the raised step at this budget (ckpt-run --compare)")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    seqs = [int(s) for s in args.seqs.split(",")]
    print(f"zoo GPT: {args.layers} layers, d {args.d}, {args.heads} heads, vocab "
          f"{args.vocab}; ckpt-run, {args.threads} thread(s), median of {args.iterations}")
    header = (f"{'seq':>6} {'form':>8} {'peak_bytes':>12} {'x prev':>7} {'step_ms':>9} "
              f"{'seq^2 at peak':>14}")
    if args.budget:
        header += f" {'peak@' + args.budget:>12} {'identical+within':>17}"
    print(header)
    previous = {}
    with tempfile.TemporaryDirectory(prefix="ckpt-attention-") as work:
        for seq in seqs:
            for raised in (True, False):
                form = "raised" if raised else "unfused"
                budget = args.budget if raised else None
                peak, seconds, square, remat_peak, ok = measure(args, seq, raised, budget, work)
                growth = f"{peak / previous[form]:.2f}" if form in previous else "-"
                previous[form] = peak
                line = (f"{seq:>6} {form:>8} {peak:>12} {growth:>7} {seconds * 1e3:>9.1f} "
                        f"{'yes' if square else 'no':>14}")
                if args.budget and remat_peak is not None:
                    line += f" {remat_peak:>12} {'yes' if ok else 'NO':>17}"
                print(line, flush=True)


if __name__ == "__main__":
    main()
