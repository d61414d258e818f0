"""GPU validation and benchmark of a package made by `python3 -m
ckpt.gpu_package` (run it through run.sh on the GPU machine).

Validation, for every program: each CUDA build runs 3 iterations on the
inputs of seed 1 (the driver stops if an output changes between runs);
every output must match the CPU build's (no remat) within a normwise
relative error of 1e-4 (f32: cuBLAS and the kernels sum in other orders than
the CPU loops); every remat build's outputs must be bit-identical to the
CUDA build without remat; the device peak the runtime measured must not
exceed the budget.

Benchmark, for every GPT size: median step time and device peak of ckpt
without remat and at each budget, PyTorch eager and PyTorch with
torch.utils.checkpoint around every block (torch_gpt.py: same shapes and
math, f32), as ratios to PyTorch eager; and ckpt's throughput at the peak
memory of PyTorch + checkpoint (the fastest ckpt build whose peak is at most
that), and with PyTorch's fused attention (SDPA) in both PyTorch rows,
ckpt's smallest peak against PyTorch + checkpoint's. The benchmark checks
too: remat builds bit-identical to the build without remat, device peak <=
budget, and ckpt's loss and gradients equal PyTorch's on the same inputs
(normwise relative error <= 1e-4).

Attention, for every attention program: one forward and backward through
ckpt's fused kernels against PyTorch's scaled_dot_product_attention in f32
and bf16 (torch_attention.py), and ckpt's loss and gradients against
PyTorch's f32 ones on the same inputs (normwise relative error <= 1e-4).

    python3 gpu_check.py [--iterations N] [--skip-validation] [--skip-torch]

Writes results.json; exits 1 when a validation check fails.
"""

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import tarfile

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = {"f32": numpy.float32, "f64": numpy.float64, "i1": numpy.uint8,
          "i8": numpy.int8, "i32": numpy.int32, "i64": numpy.int64}
TOLERANCE = 1e-4


def read_outputs(path, outputs):
    with open(path, "rb") as f:
        return decode_outputs(f.read(), outputs, path)


def decode_outputs(data, outputs, what="outputs"):
    arrays, offset = [], 0
    for info in outputs:
        dtype = numpy.dtype(DTYPES[info["dtype"]])
        count = int(numpy.prod(info["shape"], dtype=numpy.int64))
        arrays.append(numpy.frombuffer(data, dtype, count, offset).reshape(info["shape"]))
        offset += count * dtype.itemsize
    if offset != len(data):
        raise ValueError(f"{what}: {len(data)} bytes, expected {offset}")
    return arrays


# One build's run (all its iterations), in seconds: a hung kernel costs
# this much GPU time, not the whole run's.
RUN_TIMEOUT_S = 120


def execute(exe, iterations, dump=None, env=None):
    """Runs one build on the inputs of seed 1: its CompletedProcess, or None
    when it gave no result within RUN_TIMEOUT_S."""
    command = [os.path.join(HERE, exe), f"--iterations={iterations}", "--seed=1"]
    if dump:
        command.append(f"--dump-outputs={dump}")
    try:
        return subprocess.run(command, capture_output=True, text=True, env=env,
                              timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None


def run_exe(exe, iterations, dump=None):
    result = execute(exe, iterations, dump)
    if result is None:
        return {"error": f"no result within {RUN_TIMEOUT_S} s"}
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines() or ["no output"]
        return {"error": f"exit {result.returncode}: {lines[-1][-500:]}"}
    values = dict(re.findall(r"^(median_step_time_s|peak_bytes)=(\S+)", result.stdout, re.M))
    return {"median_step_time_s": float(values["median_step_time_s"]),
            "peak_bytes": int(values["peak_bytes"])}


def run_variant(variant, iterations, baseline_bytes):
    """Runs one build with its outputs dumped. Returns what it measured, the
    outputs' bytes (None when it failed) and the problems found: for a remat
    build, outputs not bit-identical to `baseline_bytes` (the build without
    remat) or a peak over its budget."""
    dump = os.path.join(HERE, "out", os.path.basename(variant["exe"]) + ".bin")
    measured = run_exe(variant["exe"], iterations, dump)
    if "error" in measured:
        return measured, None, ["run failed: " + measured["error"]]
    with open(dump, "rb") as f:
        raw = f.read()
    problems = []
    if variant["budget"] != "none":
        measured["bit_identical"] = raw == baseline_bytes
        if not measured["bit_identical"]:
            problems.append("outputs differ from the CUDA build without remat")
        budget = variant.get("budget_bytes")
        if budget is not None and measured["peak_bytes"] > budget:
            problems.append(f"device peak {measured['peak_bytes']} > budget {budget}")
    return measured, raw, problems


def relative_error(actual, expected):
    a = actual.astype(numpy.float64).ravel()
    e = expected.astype(numpy.float64).ravel()
    if not numpy.all(numpy.isfinite(a)):
        return float("inf")
    scale = numpy.linalg.norm(e)
    difference = numpy.linalg.norm(a - e)
    return float(difference / scale) if scale > 0 else float(difference)


def save(results):
    """results.json, rewritten after every program: a run stopped at its time
    limit still leaves what it measured."""
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump(results, f, indent=1)


def validate(manifest, results):
    failures = []
    os.makedirs(os.path.join(HERE, "out"), exist_ok=True)
    print(f"== validation: {manifest.get('backend', 'cuda')} builds vs the CPU build (normwise relative error "
          f"<= {TOLERANCE:g}), remat vs no remat (bit-identical), measured "
          "peak <= budget")
    print(f"{'program':14} {'budget':8} {'peak B':>10} {'budget B':>10} {'cpu peak B':>10} "
          f"{'max rel err':>11} {'bit-identical':>13}  status")
    for name, program in manifest["validation"].items():
        expected = read_outputs(os.path.join(HERE, program["reference"]), program["outputs"])
        baseline_bytes = None
        for variant in program["variants"]:
            row = {"program": name, "budget": variant["budget"]}
            results["validation"].append(row)
            if "infeasible" in variant:
                row["status"] = "infeasible at build time"
                print(f"{name:14} {variant['budget']:8} {variant['infeasible']}")
                continue
            measured, raw, problems = run_variant(variant, 3, baseline_bytes)
            row.update(measured)
            if raw is not None:
                if variant["budget"] == "none":
                    baseline_bytes = raw
                actual = decode_outputs(raw, program["outputs"])
                errors = [relative_error(a, e) for a, e in zip(actual, expected)]
                row["max_relative_error"] = max(errors)
                if max(errors) > TOLERANCE:
                    worst = max(range(len(errors)), key=errors.__getitem__)
                    problems.insert(0, f"output #{worst} relative error {errors[worst]:.3g}")
            row["status"] = "ok" if not problems else "; ".join(problems)
            if problems:
                failures.append(f"{name}@{variant['budget']}: {row['status']}")
            identical = {None: "-", True: "yes", False: "NO"}[row.get("bit_identical")]
            print(f"{name:14} {variant['budget']:8} {row.get('peak_bytes', '-'):>10} "
                  f"{variant.get('budget_bytes', '-'):>10} {program['cpu_peak_bytes']:>10} "
                  f"{row.get('max_relative_error', float('nan')):>11.2e} {identical:>13}  "
                  f"{row['status']}", flush=True)
        save(results)
    return failures


def reference_module(name):
    """The PyTorch reference `name` shipped next to this script, or None
    (with a message) when PyTorch is missing."""
    try:
        sys.path.insert(0, HERE)
        return importlib.import_module(name)
    except ImportError as error:
        print(f"(no PyTorch: {error}; PyTorch rows skipped)")
        return None


def compare_with_torch(name, raw, program, theirs, checks, what):
    """ckpt's outputs (`raw`, as the program's outputs) against PyTorch's
    arrays `theirs`: records and prints the largest normwise relative error;
    returns the failed check, if any."""
    ours = decode_outputs(raw, program["outputs"])
    error = max(relative_error(a, b) for a, b in zip(ours, theirs))
    checks["torch_vs_ckpt_max_relative_error"] = error
    print(f"{what}: max normwise relative error {error:.2e} (<= {TOLERANCE:g} required)")
    return [f"{name}: ckpt and PyTorch disagree ({error:.3g})"] if error > TOLERANCE else []


def benchmark(manifest, results, iterations, skip_torch, device):
    """Returns the failed checks (outputs, budgets, agreement with PyTorch)."""
    failures = []
    os.makedirs(os.path.join(HERE, "out"), exist_ok=True)
    torch_gpt = None if skip_torch else reference_module("torch_gpt")
    for name, program in manifest["benchmark"].items():
        shape = program["shape"]
        print(f"\n== benchmark {name}: {shape} f32, {iterations} iterations, median")
        rows, baseline_bytes, checks = [], None, {}
        for variant in program["variants"]:
            if "infeasible" in variant:
                rows.append({"what": f"ckpt {variant['budget']}", "note": "infeasible"})
                continue
            measured, raw, problems = run_variant(variant, iterations, baseline_bytes)
            label = "ckpt no remat" if variant["budget"] == "none" else f"ckpt {variant['budget']}"
            rows.append(dict(measured, what=label, budget_bytes=variant.get("budget_bytes"),
                             estimated_peak_bytes=variant.get("estimated_peak_bytes")))
            failures += [f"{name}@{variant['budget']}: {problem}" for problem in problems]
            if raw is not None and variant["budget"] == "none":
                baseline_bytes = raw
        if torch_gpt is not None and baseline_bytes is not None:
            # The same model: PyTorch's loss and gradients on the inputs the
            # ckpt driver generated.
            arrays = torch_gpt.ckpt_inputs([i["shape"] for i in program["inputs"]], 1)
            theirs = torch_gpt.loss_and_gradients(arrays, shape["heads"], device,
                                                  shape.get("batch", 1))
            failures += compare_with_torch(name, baseline_bytes, program, theirs, checks,
                                           "ckpt (no remat) vs PyTorch, loss and every "
                                           "gradient")
        if torch_gpt is not None:
            for sdpa in (False, True):
                for checkpoint in (False, True):
                    what = "torch checkpoint/layer" if checkpoint else "torch eager"
                    what += " sdpa" if sdpa else ""
                    try:
                        measured = torch_gpt.measure(shape["layers"], shape["seq"], shape["d"],
                                                     shape["heads"], checkpoint, iterations,
                                                     device=device, sdpa=sdpa,
                                                     batch=shape.get("batch", 1))
                    except RuntimeError as error:  # out of memory, most likely
                        measured = {"error": str(error).splitlines()[0][:200]}
                        torch_gpt.release_memory(device)
                    rows.append(dict(measured, what=what))
        eager = next((r for r in rows if r["what"] == "torch eager"), None)
        print(f"{'':24} {'step ms':>9} {'peak MiB':>9} {'time/eager':>10} {'peak/eager':>10}")
        for row in rows:
            if "median_step_time_s" not in row:
                print(f"{row['what']:24} {row.get('note') or row.get('error', '')}")
                continue
            if eager and eager["median_step_time_s"] > 0:
                row["time_ratio_vs_torch_eager"] = row["median_step_time_s"] / eager["median_step_time_s"]
            if eager and eager["peak_bytes"] > 0:  # 0: PyTorch on the CPU
                row["peak_ratio_vs_torch_eager"] = row["peak_bytes"] / eager["peak_bytes"]
            print(f"{row['what']:24} {row['median_step_time_s'] * 1e3:9.3f} "
                  f"{row['peak_bytes'] / 2**20:9.2f} "
                  f"{row.get('time_ratio_vs_torch_eager', float('nan')):10.3f} "
                  f"{row.get('peak_ratio_vs_torch_eager', float('nan')):10.3f}")
        reference = next((r for r in rows if r["what"] == "torch checkpoint/layer"), None)
        summary = {}
        if reference:
            fitting = [r for r in rows if r["what"].startswith("ckpt") and
                       "peak_bytes" in r and r["peak_bytes"] <= reference["peak_bytes"]]
            if fitting:
                best = min(fitting, key=lambda r: r["median_step_time_s"])
                summary = {"ckpt_build": best["what"],
                           "throughput_vs_torch_checkpoint":
                               reference["median_step_time_s"] / best["median_step_time_s"]}
                print(f"ckpt at <= torch+checkpoint's peak: {best['what']}, throughput "
                      f"{summary['throughput_vs_torch_checkpoint']:.3f}x torch+checkpoint "
                      "(goal >= 1.0)")
            else:
                print("no ckpt build fits torch+checkpoint's peak")
        # Memory at long context: ckpt's smallest measured peak against
        # PyTorch + checkpoint per layer with its fused attention (SDPA).
        sdpa_reference = next((r for r in rows if r["what"] == "torch checkpoint/layer sdpa"
                               and "peak_bytes" in r), None)
        measured_ckpt = [r for r in rows if r["what"].startswith("ckpt") and "peak_bytes" in r]
        if sdpa_reference and measured_ckpt and sdpa_reference["peak_bytes"] > 0:
            smallest = min(measured_ckpt, key=lambda r: r["peak_bytes"])
            summary["smallest_ckpt_peak_build"] = smallest["what"]
            summary["smallest_ckpt_peak_vs_torch_checkpoint_sdpa"] = (
                smallest["peak_bytes"] / sdpa_reference["peak_bytes"])
            print(f"ckpt's smallest peak ({smallest['what']}): "
                  f"{summary['smallest_ckpt_peak_vs_torch_checkpoint_sdpa']:.3f}x "
                  "torch+checkpoint (SDPA)'s")
        results["benchmark"][name] = {"shape": shape, "rows": rows, "summary": summary,
                                      "checks": checks}
        save(results)
    return failures


def attention_benchmark(manifest, results, iterations, skip_torch):
    """One attention forward and backward: ckpt's fused kernels against
    PyTorch's scaled_dot_product_attention (f32 and bf16), and ckpt's loss
    and gradients against PyTorch's f32 ones on the same inputs. Returns the
    failed checks."""
    failures = []
    torch_attention = None if skip_torch else reference_module("torch_attention")
    for name, program in manifest.get("attention", {}).items():
        shape = program["shape"]
        print(f"\n== attention {name}: {shape}, forward + backward, {iterations} "
              "iterations, median")
        variant = program["variants"][0]
        measured, raw, problems = run_variant(variant, iterations, None)
        failures += [f"{name}: {problem}" for problem in problems]
        rows = [dict(measured, what="ckpt f32 (fused kernels)")]
        checks = {}
        if torch_attention is not None and raw is not None:
            arrays = generate_inputs(program["inputs"])
            theirs = torch_attention.loss_and_gradients(arrays, shape.get("causal", False))
            failures += compare_with_torch(name, raw, program, theirs, checks,
                                           "ckpt vs PyTorch SDPA (f32), loss and gradients")
        if torch_attention is not None:
            for dtype in ("f32", "bf16"):
                row = torch_attention.measure(shape["batch"], shape["heads"], shape["seq"],
                                              shape["width"], shape.get("causal", False),
                                              dtype, iterations)
                rows.append(dict(row, what=f"torch sdpa {dtype}"))
        print(f"{'':26} {'ms':>9} {'peak MiB':>9} {'time/sdpa f32':>13}")
        reference = next((r for r in rows if r["what"] == "torch sdpa f32"), None)
        for row in rows:
            if "median_step_time_s" not in row:
                print(f"{row['what']:26} {row.get('error', '')}")
                continue
            if reference:
                row["time_ratio_vs_torch_sdpa_f32"] = (row["median_step_time_s"] /
                                                       reference["median_step_time_s"])
            print(f"{row['what']:26} {row['median_step_time_s'] * 1e3:9.3f} "
                  f"{row['peak_bytes'] / 2**20:9.2f} "
                  f"{row.get('time_ratio_vs_torch_sdpa_f32', float('nan')):13.3f}")
        results.setdefault("attention", {})[name] = {"shape": shape, "rows": rows,
                                                     "checks": checks}
        save(results)
    return failures


def generate_inputs(signature):
    """The inputs ckpt's drivers generate for `signature` with seed 1."""
    try:
        from ckpt.inputs import generate
    except ImportError:
        from ckpt_inputs import generate
    return generate([(i["shape"], i["dtype"]) for i in signature], 1)


def profile(manifest, results, iterations):
    """Where the host time of each benchmark program's build without remat
    goes (the runtime's CKPT_CUDA_PROFILE lines), with the runtime's caches
    of device blocks and streams on and off (CKPT_CUDA_CACHING=0)."""
    for name, program in manifest["benchmark"].items():
        variant = next((v for v in program["variants"] if v.get("budget") == "none"), None)
        if variant is None:
            continue
        for caching in ("1", "0"):
            env = dict(os.environ, CKPT_CUDA_PROFILE="1", CKPT_CUDA_CACHING=caching)
            result = execute(variant["exe"], iterations, env=env)
            if result is None:
                print(f"profile {name} caching={caching}: no result within {RUN_TIMEOUT_S} s")
                continue
            lines = [line for line in result.stderr.splitlines()
                     if line.startswith("ckpt-cuda-profile:")]
            step = re.search(r"^median_step_time_s=(\S+)", result.stdout, re.M)
            print(f"\n== profile {name} (no remat, {iterations} iterations, caching "
                  f"{'on' if caching == '1' else 'off'}): median step "
                  f"{float(step.group(1)) * 1e3 if step else float('nan'):.3f} ms")
            print("\n".join(lines))
            results.setdefault("profile", {})[f"{name}/caching={caching}"] = {
                "median_step_time_s": float(step.group(1)) if step else None,
                "lines": lines}
        save(results)


def unpack():
    """Unpacks bin.tar.xz (the executables) next to this script once."""
    archive = os.path.join(HERE, "bin.tar.xz")
    if os.path.isdir(os.path.join(HERE, "bin")) or not os.path.exists(archive):
        return
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar.getmembers():
            if not (member.isfile() or member.isdir()) or member.name.startswith(("/", "..")):
                raise ValueError(f"{archive}: unexpected member {member.name}")
        try:
            tar.extractall(HERE, filter="data")
        except TypeError:  # Python without extraction filters
            tar.extractall(HERE)


def main():
    parser = argparse.ArgumentParser(description="GPU validation and benchmark of a ckpt package")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--skip-validation", action="store_true")
    parser.add_argument("--skip-benchmark", action="store_true")
    parser.add_argument("--skip-torch", action="store_true")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the benchmark builds without remat")
    parser.add_argument("--torch-device", default="cuda",
                        help="device of the PyTorch rows (cpu: for tests without a GPU)")
    parser.add_argument("--unpack-only", action="store_true",
                        help="unpack the executables (bin.tar.xz) and stop")
    args = parser.parse_args()
    unpack()
    if args.unpack_only:
        return 0
    with open(os.path.join(HERE, "manifest.json")) as f:
        manifest = json.load(f)
    results = {"validation": [], "benchmark": {}}
    failures = [] if args.skip_validation else validate(manifest, results)
    if not args.skip_benchmark:
        failures += attention_benchmark(manifest, results, args.iterations,
                                        args.skip_torch or args.torch_device != "cuda")
        failures += benchmark(manifest, results, args.iterations, args.skip_torch,
                              args.torch_device)
    if args.profile:
        profile(manifest, results, 3)
    results["failures"] = failures
    save(results)
    if failures:
        print(f"\nchecks FAILED ({len(failures)}):\n  " + "\n  ".join(failures))
        return 1
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
