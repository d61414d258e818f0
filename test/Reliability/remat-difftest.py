#!/usr/bin/env python3
"""Differential test of ckpt-remat on random programs.

For each case: a seeded random program is run with ckpt-run without remat
and with `--remat-budget=F` for a random F. Half the cases are random tensor
DAGs (matmuls with weight arguments, elementwise ops, row reductions
broadcast back, long skips, values used several times), half are training
steps of random-sized MLPs and residual conv nets from the model zoo
differentiated by ckpt-autodiff (forward activations saved for a backward
pass: the situation remat exists for). Every output must be
bit-identical (equal checksums) and the measured peak must not exceed the
budget (F times the baseline peak, rounded down). A budget ckpt-remat
reports infeasible is counted, not failed.

Usage: remat-difftest.py --ckpt-opt PATH --ckpt-run PATH [--seed S] [--cases N]
Prints one line per failure and a summary; exits 1 on any mismatch or
budget violation.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

B, H = 128, 32  # activations are B x H f32 = 16 KiB, weights H x H = 4 KiB


def generate(rng, ops):
    ty = f"tensor<{B}x{H}xf32>"
    wty = f"tensor<{H}x{H}xf32>"
    weights = rng.randint(1, 3)
    args = ["%x: " + ty] + [f"%w{i}: {wty}" for i in range(weights)]
    lines = ["  %zero = arith.constant 0.0 : f32",
             "  %half = arith.constant dense<0.5> : " + ty]
    values = ["%x"]
    for i in range(ops):
        kind = rng.choice(["matmul", "matmul", "tanh", "add", "mul", "relu", "center"])
        a = rng.choice(values[-3:]) if rng.random() < 0.7 else rng.choice(values)
        b = rng.choice(values)
        v = f"%v{i}"
        if kind == "matmul":
            w = f"%w{rng.randrange(weights)}"
            lines += [f"  %e{i} = tensor.empty() : {ty}",
                      f"  %z{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {ty}) -> {ty}",
                      f"  {v} = linalg.matmul ins({a}, {w} : {ty}, {wty}) outs(%z{i} : {ty}) -> {ty}"]
        elif kind == "tanh":
            lines.append(f"  {v} = math.tanh {a} : {ty}")
        elif kind == "add":
            lines.append(f"  {v} = arith.addf {a}, {b} : {ty}")
        elif kind == "mul":
            lines.append(f"  %m{i} = arith.mulf {a}, {b} : {ty}")
            lines.append(f"  {v} = arith.mulf %m{i}, %half : {ty}")
        elif kind == "relu":
            lines.append(f"  %zt{i} = arith.constant dense<0.0> : {ty}")
            lines.append(f"  {v} = arith.maximumf {a}, %zt{i} : {ty}")
        else:  # subtract the row mean (a reduction broadcast back)
            lines += [f"  %re{i} = tensor.empty() : tensor<{B}xf32>",
                      f"  %r0{i} = linalg.fill ins(%zero : f32) outs(%re{i} : tensor<{B}xf32>) -> tensor<{B}xf32>",
                      f"  %rs{i} = linalg.reduce ins({a} : {ty}) outs(%r0{i} : tensor<{B}xf32>) dimensions = [1]",
                      f"    (%in{i}: f32, %acc{i}: f32) {{",
                      f"      %s{i} = arith.addf %in{i}, %acc{i} : f32",
                      f"      linalg.yield %s{i} : f32",
                      "    }",
                      f"  %be{i} = tensor.empty() : {ty}",
                      f"  %bm{i} = linalg.broadcast ins(%rs{i} : tensor<{B}xf32>) outs(%be{i} : {ty}) dimensions = [1]",
                      f"  %k{i} = arith.constant dense<{1.0 / H}> : {ty}",
                      f"  %mean{i} = arith.mulf %bm{i}, %k{i} : {ty}",
                      f"  {v} = arith.subf {a}, %mean{i} : {ty}"]
        values.append(v)
    # Outputs: the last value plus long skips back to early values (as
    # forward activations reused by a backward pass are), and one more value.
    acc = values[-1]
    for j in range(3):
        early = values[rng.randrange(1, max(2, len(values) // 3))]
        lines.append(f"  %out{j} = arith.addf {acc}, {early} : {ty}")
        acc = f"%out{j}"
    lines.append(f"  return {acc}, {values[-2]} : {ty}, {ty}")
    return (f"func.func @step({', '.join(args)}) -> ({ty}, {ty}) {{\n"
            + "\n".join(lines) + "\n}\n")


def zoo_training_step(rng, work, case, ckpt_opt, python_dir):
    """A random-sized zoo model, differentiated: (path, entry)."""
    if rng.random() < 0.6:
        model = ["mlp", "--layers", str(rng.randint(2, 6)),
                 "--batch", str(rng.choice([64, 128, 256])),
                 "--hidden", str(rng.choice([16, 32, 64]))]
    else:
        model = ["resnet", "--blocks", str(rng.randint(1, 3)),
                 "--batch", "1", "--size", str(rng.choice([8, 16])),
                 "--channels", str(rng.choice([4, 8]))]
    env = dict(os.environ, PYTHONPATH=python_dir)
    text = subprocess.run([sys.executable, "-m", "ckpt.models", *model],
                          capture_output=True, text=True, env=env, check=True).stdout
    path = os.path.join(work, f"case{case}.mlir")
    subprocess.run([ckpt_opt, "--ckpt-autodiff", "-o", path], input=text,
                   capture_output=True, text=True, check=True)
    return path, "loss_grad", " ".join(model)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def parse(out):
    peak = int(re.search(r"^peak_bytes=(\d+)", out, re.M).group(1))
    sums = re.findall(r"checksum=(0x[0-9a-f]+)", out)
    return peak, sums


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt-opt", required=True)
    parser.add_argument("--ckpt-run", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts = dict(cases=0, changed=0, infeasible=0, mismatches=0, violations=0)
    with tempfile.TemporaryDirectory() as work:
        python_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "..", "..", "python")
        for case in range(args.cases):
            if case % 2:
                path, entry, program = zoo_training_step(
                    rng, work, case, args.ckpt_opt, python_dir)
            else:
                program = generate(rng, rng.randint(10, 24))
                path, entry = os.path.join(work, f"case{case}.mlir"), "step"
                with open(path, "w") as f:
                    f.write(program)
            fraction = round(rng.uniform(0.75, 0.98), 2)
            # -O0: the checks are of outputs and peaks, and -O2 JIT time
            # would dominate the test.
            ckpt_run = [args.ckpt_run, path, f"--entry={entry}", "--iterations=1",
                        "--opt-level=0"]
            base = run(ckpt_run)
            if base.returncode:
                sys.exit(f"case {case}: the baseline failed:\n{base.stderr}\n{program}")
            base_peak, base_sums = parse(base.stdout)
            remat = run(ckpt_run + [f"--remat-budget={fraction}"])
            counts["cases"] += 1
            if remat.returncode:
                if "below the smallest peak found" in remat.stderr:
                    counts["infeasible"] += 1
                    continue
                sys.exit(f"case {case} (budget {fraction}): remat failed:\n"
                         f"{remat.stderr}\n{program}")
            peak, sums = parse(remat.stdout)
            if peak < base_peak:
                counts["changed"] += 1
            if sums != base_sums:
                counts["mismatches"] += 1
                print(f"case {case} (seed {args.seed}, budget {fraction}): outputs differ")
            budget = int(base_peak * fraction)
            if peak > budget:
                counts["violations"] += 1
                print(f"case {case} (seed {args.seed}, budget {fraction}): "
                      f"peak {peak} > budget {budget}")
    print("remat-difftest: {cases} cases, {changed} with a lower peak, "
          "{infeasible} infeasible budgets, {mismatches} mismatches, "
          "{violations} budget violations".format(**counts))
    sys.exit(1 if counts["mismatches"] or counts["violations"] else 0)


if __name__ == "__main__":
    main()
