#!/usr/bin/env python3
"""Remat benchmark: the zoo's training steps compiled, rematerialized and run.

For every program and every budget in --budgets, `ckpt-run --compare` builds
the step without and with remat in one process, runs both on the same inputs
and measures: the peak bytes (libckpt_runtime) over the baseline peak, the
FLOP overhead of the recomputations, the median CPU step-time ratio, and
whether the outputs are bit-identical (ckpt-run fails otherwise). Then the
`checkpoint_sequential` baseline: `uniform:k` (keep every k-th forward value)
for k in --uniform, and ckpt's own solver at exactly the peak uniform:k
measured, so the two are compared at equal peak.

Usage:
  run_remat_benchmark.py [--build build] [--programs mlp,transformer,...]
      [--budgets 0.3,0.4,...] [--uniform 1,2,3,4] [--solver auto]
      [--iterations 3] [--json out.json]

Python 3 standard library only; needs ckpt-opt and ckpt-run in --build/bin.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The programs of test/Remat/remat-programs.test.
PROGRAMS = {
    "mlp": ["mlp", "--layers", "8", "--batch", "256", "--hidden", "64"],
    "transformer": ["transformer", "--layers", "4", "--seq", "64", "--d", "32",
                    "--heads", "2"],
    "unet": ["unet", "--levels", "3", "--batch", "2", "--size", "32",
             "--channels", "4", "--in-channels", "2"],
    "dropout": ["mlp", "--layers", "6", "--batch", "256", "--hidden", "64",
                "--dropout", "0.25"],
}

FIELDS = re.compile(r"(\w+)=([^\s]+)")


def generate(build, name, directory):
    """The differentiated training step of a zoo program, as a file."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    model = subprocess.run([sys.executable, "-m", "ckpt.models"] + PROGRAMS[name],
                           env=env, check=True, capture_output=True, text=True)
    path = os.path.join(directory, name + ".mlir")
    subprocess.run([os.path.join(build, "bin", "ckpt-opt"), "--ckpt-autodiff",
                    "-o", path], input=model.stdout, check=True, text=True)
    return path


def compare(build, path, budget, solver, iterations):
    """One ckpt-run --compare; a dict of its figures, or of the error: its
    line and, for an infeasible budget, the smallest peak ckpt-remat's report
    states."""
    report = path + f".{budget}.{solver}.report.json"
    command = [os.path.join(build, "bin", "ckpt-run"), path, "--entry=loss_grad",
               f"--iterations={iterations}", "--compare",
               f"--remat-budget={budget}", f"--remat-solver={solver}",
               f"--remat-report={report}"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        errors = [l for l in result.stderr.splitlines() if "error:" in l]
        failure = {"error": errors[0] if errors else result.stderr.strip()}
        try:
            with open(report) as file:
                functions = json.load(file)["functions"]
            error = next(f["error"] for f in functions if "error" in f)
            if error["kind"] == "infeasible-budget":
                failure["smallest_peak_bytes"] = error["smallest_peak_bytes"]
        except (OSError, ValueError, KeyError, StopIteration):
            pass
        return failure
    figures = {}
    for line in result.stdout.splitlines()[1:4]:
        prefix = line.split(":", 1)[0] if line.startswith(("baseline:", "remat:")) else ""
        for key, value in FIELDS.findall(line):
            figures[(prefix + "_" if prefix else "") + key] = value
    return figures


def percent(text):
    return float(text.rstrip("%")) / 100.0


def row(label, budget, figures):
    if "error" in figures:
        note = (f"infeasible (smallest peak found {figures['smallest_peak_bytes']} B)"
                if "smallest_peak_bytes" in figures else figures["error"])
        return f"| {label} | {budget} | {note} | | | | |"
    return ("| {label} | {budget} | {peak} | {ratio:.3f} | {flops:.1%} | {time:.3f} | {same} |"
            .format(label=label, budget=budget, peak=figures["remat_peak_bytes"],
                    ratio=float(figures["peak_ratio"]),
                    flops=percent(figures["flop_overhead"]),
                    time=float(figures["step_time_ratio"]),
                    same=figures["outputs_identical"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--programs", default=",".join(PROGRAMS))
    parser.add_argument("--budgets", default="0.3,0.4,0.5,0.6,0.7,0.8,0.9")
    parser.add_argument("--uniform", default="1,2,3,4")
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--json", help="also write every figure here")
    args = parser.parse_args()

    results = {}
    with tempfile.TemporaryDirectory() as directory:
        for name in args.programs.split(","):
            if name not in PROGRAMS:
                parser.error(f"unknown program '{name}'; expected one of {', '.join(PROGRAMS)}")
            path = generate(args.build, name, directory)
            print(f"\n### {name} (`python3 -m ckpt.models {' '.join(PROGRAMS[name])}` "
                  f"| `ckpt-opt --ckpt-autodiff`)\n")
            print("| plan | budget | measured peak B | peak / baseline | FLOP overhead "
                  "| step time / baseline | bit-identical |")
            print("|---|---|---|---|---|---|---|")
            entries = []
            for budget in args.budgets.split(","):
                figures = compare(args.build, path, budget, args.solver, args.iterations)
                entries.append({"plan": args.solver, "budget": budget, **figures})
                print(row(args.solver, budget, figures), flush=True)
            for k in args.uniform.split(","):
                uniform = compare(args.build, path, "1.0", f"uniform:{k}", args.iterations)
                entries.append({"plan": f"uniform:{k}", "budget": "1.0", **uniform})
                print(row(f"uniform:{k}", "-", uniform), flush=True)
                if "error" in uniform:
                    continue
                # ckpt at exactly the peak uniform:k reached.
                peak = uniform["remat_peak_bytes"]
                ours = compare(args.build, path, peak, args.solver, args.iterations)
                entries.append({"plan": args.solver, "budget": peak,
                                "versus": f"uniform:{k}", **ours})
                print(row(f"{args.solver} at uniform:{k}'s peak", peak, ours), flush=True)
            results[name] = entries
            baselines = [e["baseline_peak_bytes"] for e in entries if "baseline_peak_bytes" in e]
            if baselines:
                print(f"\nbaseline peak {baselines[0]} B (measured)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
