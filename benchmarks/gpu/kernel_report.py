#!/usr/bin/env python3
"""Estimated efficiency of the kernels ckpt-gpu-pipeline generates for the
zoo models, without a GPU: ckpt-map-linalg-to-gpu's kernel report (the cost
model's roofline time on an H100 SXM, the fraction of the GPU's 270,336
resident threads each launch fills, the fraction of each 32-byte sector a
thread-per-output reduction along an operand's innermost dimension uses).
Efficiency = roofline time / estimated time, summed over the generated
kernels (cuBLAS GEMMs are counted, not estimated). Naive kernels show as
low efficiency; the worst ones are listed with their source location.

    python3 benchmarks/gpu/kernel_report.py [--build build] [--json latest.json] [--quick]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODELS = {
    "mlp (8x64, batch 256)": "mlp --layers 8 --batch 256 --hidden 64",
    "mlp-dropout": "mlp --layers 6 --batch 256 --hidden 64 --dropout 0.25",
    "transformer (4 layers, seq 64, d 32)": "transformer --layers 4 --seq 64 --d 32 --heads 2",
    "unet (3 levels, 32x32)": "unet --levels 3 --batch 2 --size 32 --channels 4 --in-channels 2",
    "resnet (2 blocks, 8x8)": "resnet --blocks 2 --batch 2 --size 8 --channels 4",
    "gpt-small (4 layers, seq 512, d 128)": "transformer --layers 4 --seq 512 --d 128 --heads 8",
    "gpt-medium (8 layers, seq 1024, d 256)": "transformer --layers 8 --seq 1024 --d 256 --heads 8",
    "mlp-wide (4x1024, batch 512)": "mlp --layers 4 --batch 512 --hidden 1024",
}
QUICK = ["mlp (8x64, batch 256)", "gpt-small (4 layers, seq 512, d 128)"]


def report(build, zoo_args, work):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    forward = subprocess.run([sys.executable, "-m", "ckpt.models"] + zoo_args.split(),
                             capture_output=True, text=True, check=True, env=env).stdout
    step = os.path.join(work, "step.mlir")
    subprocess.run([os.path.join(build, "bin", "ckpt-opt"), "--ckpt-autodiff", "-o", step],
                   input=forward, text=True, check=True)
    kernels = os.path.join(work, "kernels.json")
    # format=isa: PTX instead of cubins (ptxas adds nothing to the estimate).
    lowered = subprocess.run(
        [os.path.join(build, "bin", "ckpt-opt"), step,
         f"--pass-pipeline=builtin.module(ckpt-gpu-pipeline{{kernel-report={kernels} format=isa}})"],
        capture_output=True, text=True, check=True).stdout
    data = json.load(open(kernels))
    data["cublas_calls"] = len(re.findall(r"llvm\.call @ckpt_cuda_(?:batch_)?gemm_", lowered))
    return data


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--quick", action="store_true", help="two models only")
    parser.add_argument("--worst", type=int, default=3, help="worst kernels listed per model")
    args = parser.parse_args()
    names = QUICK if args.quick else list(MODELS)
    results = {}
    start = time.time()
    print(f"{'model':40} {'kernels':>7} {'cuBLAS':>6} {'roofline ms':>11} {'estimated ms':>12} "
          f"{'efficiency':>10} {'<50%':>5}")
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            data = report(args.build, MODELS[name], work)
            summary = data["summary"]
            results[name] = {"zoo": MODELS[name], "summary": summary,
                             "cublas_calls": data["cublas_calls"]}
            print(f"{name:40} {summary['kernel_count']:7d} {data['cublas_calls']:6d} "
                  f"{summary['roofline_s'] * 1e3:11.4f} {summary['estimated_s'] * 1e3:12.4f} "
                  f"{summary['efficiency']:10.3f} {summary['kernels_below_half']:5d}")
            # The kernels that lose the most time to their mapping.
            worst = sorted(data["kernels"], key=lambda k: k["roofline_s"] - k["estimated_s"])
            results[name]["worst"] = worst[:args.worst]
            for kernel in worst[:args.worst]:
                print(f"    {kernel['mapping']:18} {kernel['blocks']:>6} x {kernel['threads_per_block']:<4} "
                      f"efficiency {kernel['efficiency']:.3f} (threads {kernel['parallel_fraction']:.3f}, "
                      f"sectors {kernel['access_fraction']:.3f}), "
                      f"loses {(kernel['estimated_s'] - kernel['roofline_s']) * 1e6:.1f} us  "
                      f"{os.path.basename(kernel['location'])}")
    print(f"({time.time() - start:.0f} s; target {data['target']}, "
          f"{data['resident_threads']} resident threads)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
