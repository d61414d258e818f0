"""The f32 GEMMs of a compiled step, by shape, against PyTorch's FLOP count.

A gemm=blas build of the model's exported step (ckpt-compile --emit=lib,
one thread) runs in a child process with gemm_calls.c preloaded: two
warm-up steps, then --steps measured ones. Prints, per GEMM shape, the calls
and seconds per step and the GFLOP/s reached, then the GEMMs' GFLOP and
seconds per step beside the FLOPs PyTorch's own counter
(torch.utils.flop_counter) gives eager's forward and backward: where ckpt
multiplies more than PyTorch does (zeros, discarded positions), the two
differ.

    PYTHONPATH=python python3 benchmarks/cpu/gemm_profile.py [MODEL] [--steps 3] [--top 15]

MODEL names ckpt.torch's examples (gpt, resnet) or ckpt.torch.zoo's models
(resnet18, mobilenet-v2, vit, ...); resnet18 by default.
"""

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def child(library, entry, arguments_path, steps):
    """Runs in the preloaded process: two warm-up steps, then `steps`."""
    import ctypes

    from ckpt.aot import CompiledStep

    with open(arguments_path, "rb") as file:
        arguments = pickle.load(file)
    step = CompiledStep(library, entry)
    step(*arguments)
    step(*arguments)
    ctypes.CDLL(None).gemm_calls_reset()
    for _ in range(int(steps)):
        step(*arguments)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", nargs="?", default="resnet18")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    compiler = shutil.which("cc") or shutil.which("clang-22") or shutil.which("gcc")
    if not compiler:
        print("gemm_profile: error: no C compiler (cc) to build gemm_calls.c", file=sys.stderr)
        return 1
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    from ckpt.execution import build_library
    from ckpt.torch import export_training_step
    from ckpt.torch.models import EXAMPLES
    from ckpt.torch.zoo import ZOO

    if args.model not in EXAMPLES and args.model not in ZOO:
        print(f"gemm_profile: error: unknown model '{args.model}' (known: "
              f"{', '.join(list(EXAMPLES) + list(ZOO))})", file=sys.stderr)
        return 1
    model, inputs, targets, loss_fn = (EXAMPLES if args.model in EXAMPLES else ZOO)[args.model]()
    with FlopCounterMode(display=False) as counter:
        loss_fn(model(*inputs), *targets).backward()
    model.zero_grad(set_to_none=True)
    pytorch_gflop = counter.get_total_flops() / 1e9
    step = export_training_step(model, inputs, loss_fn, targets=targets)
    with tempfile.TemporaryDirectory(prefix="ckpt-gemm-profile-") as work:
        preload = os.path.join(work, "gemm_calls.so")
        subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", preload,
                        os.path.join(HERE, "gemm_calls.c"), "-ldl"], check=True)
        arguments_path = os.path.join(work, "arguments.pkl")
        with open(arguments_path, "wb") as file:
            pickle.dump(step.arguments(model, inputs, targets), file)
        library, _ = build_library(step.mlir, step.entry, work, gemm="blas", threads=1)
        counts = os.path.join(work, "gemm-calls.txt")
        env = {**os.environ, "LD_PRELOAD": preload, "CKPT_GEMM_CALLS": counts,
               "OPENBLAS_NUM_THREADS": "1"}
        result = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", library, step.entry,
             arguments_path, str(args.steps)], env=env, capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            return 1
        with open(counts) as file:
            rows = [line.split() for line in file if line.strip()]
    shapes = []
    for trans_a, trans_b, m, n, k, calls, seconds in rows:
        m, n, k, calls, seconds = int(m), int(n), int(k), int(calls), float(seconds)
        shapes.append((seconds / args.steps, trans_a + trans_b, m, n, k, calls / args.steps,
                       2.0 * m * n * k * calls / args.steps / 1e9))
    shapes.sort(reverse=True)
    print(f"{args.model}: f32 GEMMs per step (one thread, {args.steps} steps after 2 warm-up)")
    print(f"{'trans':5} {'M':>6} {'N':>7} {'K':>7} {'calls':>7} {'seconds':>9} {'GFLOP/s':>8}")
    for seconds, trans, m, n, k, calls, gflop in shapes[:args.top]:
        print(f"{trans:5} {m:6d} {n:7d} {k:7d} {calls:7.0f} {seconds:9.4f} "
              f"{gflop / seconds if seconds else 0.0:8.1f}")
    total_seconds = sum(row[0] for row in shapes)
    total_gflop = sum(row[6] for row in shapes)
    print(f"gemm_gflop_per_step={total_gflop:.2f} gemm_seconds_per_step={total_seconds:.4f} "
          f"pytorch_gflop_per_step={pytorch_gflop:.2f} "
          f"ratio={total_gflop / pytorch_gflop if pytorch_gflop else 0.0:.3f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        sys.exit(child(*sys.argv[2:]))
    sys.exit(main())
