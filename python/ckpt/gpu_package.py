"""Gathers everything one GPU run needs into one folder (at most 64 MiB).

    python3 -m ckpt.gpu_package --build build --out gpu-package [--quick]

The GPU machines have CUDA, cuBLAS, PyTorch and numpy but no LLVM/MLIR, so
every GPU run of ckpt code is an ahead-of-time build made here:

- validation programs (the zoo models the remat tests execute): a CUDA
  executable (`ckpt-compile --backend=cuda`) without remat and at each
  budget, and the outputs of the CPU build without remat (seed 1) to compare
  against, with the CPU build's measured peak and each remat report's budget;
- benchmark programs (the GPT-style stack at two sizes, and at GPT-2
  small's shape at sequence 1024 and 4096): CUDA executables without remat
  and at budgets 0.3, 0.5 and 0.7 (the GPT-2-shaped ones at `min` and 0.5; a
  budget below the smallest feasible peak is built at `min` instead and
  marked so), and the PyTorch definition of the same model (`torch_gpt.py`);
- attention programs (one attention and its gradient, at GPT-2 small's head
  shape): a CUDA executable each, and the PyTorch SDPA definition
  (`torch_attention.py`);
- `run.sh` (one command: validation, then benchmark) and `gpu_check.py`.

The executables travel compressed (`bin.tar.xz`; `gpu_check.py` unpacks
them, `--unpack-only` does only that).

`manifest.json` describes it all; `run.sh` on the GPU machine writes
`results.json` and prints the tables.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LIMIT_BYTES = 64 * 1024 * 1024

# name -> (zoo command line, budgets). The remat test programs
# (test/Remat/remat-programs.test) and the language-model head.
VALIDATION = {
    "mlp": ("mlp --layers 8 --batch 256 --hidden 64", ["0.7", "min"]),
    "mlp-dropout": ("mlp --layers 6 --batch 256 --hidden 64 --dropout 0.25", ["0.8", "min"]),
    "transformer": ("transformer --layers 4 --seq 64 --d 32 --heads 2", ["0.8", "min"]),
    "gpt-lm": ("transformer --layers 2 --seq 16 --d 16 --heads 2 --vocab 64", ["0.9", "min"]),
    "unet": ("unet --levels 3 --batch 2 --size 32 --channels 4 --in-channels 2", ["0.8", "min"]),
    "resnet": ("resnet --blocks 2 --batch 2 --size 8 --channels 4", ["0.8", "min"]),
}
# Attention on its own (fused CUDA kernels vs the CPU loops): every kernel
# width (32, 64, 128, 256 channels), causal and not, a padding mask (random
# bits: with causal, some queries see no key at all), more keys than
# queries, a value width unlike the key's, sequences across several tiles.
ATTENTION_VALIDATION = {
    "attn-causal-64": ("attention --batch 1 --heads 4 --seq 130 --width 64 --causal", []),
    "attn-masked-40x24": ("attention --batch 2 --heads 3 --seq 50 --keys 70 --width 40 "
                          "--value-width 24 --masked", []),
    "attn-causal-masked-96": ("attention --batch 1 --heads 2 --seq 100 --width 96 "
                              "--causal --masked", []),
    "attn-200": ("attention --batch 1 --heads 2 --seq 40 --keys 33 --width 200", []),
    "attn-16": ("attention --batch 3 --heads 2 --seq 17 --width 16 --causal", []),
}
VALIDATION.update(ATTENTION_VALIDATION)
QUICK_VALIDATION = {"mlp": ("mlp --layers 8 --batch 256 --hidden 64", ["0.7"])}

# The GPT-style stack without a vocabulary (embedded inputs, regression
# loss) at two sizes; torch_gpt.py builds the same model.
BENCHMARK = {
    "gpt-small": {"layers": 4, "seq": 512, "d": 128, "heads": 8},
    "gpt-medium": {"layers": 8, "seq": 1024, "d": 256, "heads": 8},
    # GPT-2 small's shape (12 layers, 12 heads of 64 channels), batch 4.
    "gpt2s-1k": {"layers": 12, "seq": 1024, "d": 768, "heads": 12, "batch": 4},
    "gpt2s-4k": {"layers": 12, "seq": 4096, "d": 768, "heads": 12, "batch": 4},
}
BENCHMARK_BUDGETS = ["0.3", "0.5", "0.7"]
# Programs measured at other budgets than BENCHMARK_BUDGETS: the smallest
# peak ckpt finds (what matters at long context) and one in between.
BENCHMARK_BUDGETS_OF = {"gpt2s-1k": ["min", "0.5"], "gpt2s-4k": ["min", "0.5"]}
# Attention forward and backward alone at GPT-2 small's head shape (batch 4,
# 12 heads, 64 channels, causal), against PyTorch's SDPA.
ATTENTION_BENCHMARK = {
    "attn-gpt2s-1k": {"batch": 4, "heads": 12, "seq": 1024, "width": 64, "causal": True},
    "attn-gpt2s-4k": {"batch": 4, "heads": 12, "seq": 4096, "width": 64, "causal": True},
}
QUICK_BENCHMARK = {"gpt-tiny": {"layers": 2, "seq": 16, "d": 16, "heads": 2}}
QUICK_BENCHMARK_BUDGETS = ["0.9"]
QUICK_ATTENTION_BENCHMARK = {
    "attn-tiny": {"batch": 1, "heads": 2, "seq": 16, "width": 8, "causal": True},
}


class PackageError(Exception):
    pass


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise PackageError(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
    return result.stdout


class Packager:
    def __init__(self, build, out, jobs, backend="cuda"):
        self.backend = backend
        tools = os.path.join(build, "bin") if os.path.isdir(os.path.join(build, "bin")) else build
        self.ckpt_opt = os.path.join(tools, "ckpt-opt")
        self.ckpt_compile = os.path.join(tools, "ckpt-compile")
        for tool in (self.ckpt_opt, self.ckpt_compile):
            if not os.access(tool, os.X_OK):
                raise PackageError(f"no {tool} (build ckpt first)")
        self.out = out
        self.jobs = jobs
        self.work = os.path.join(out, ".work")
        for sub in ("bin", "ref", "src", ".work"):
            os.makedirs(os.path.join(out, sub), exist_ok=True)

    def generate(self, name, zoo_args):
        """The differentiated training step of a zoo model, in src/."""
        path = os.path.join(self.out, "src", name + ".mlir")
        forward = run([sys.executable, "-m", "ckpt.models"] + zoo_args.split(),
                      env=dict(os.environ, PYTHONPATH=os.path.dirname(HERE)))
        run([self.ckpt_opt, "--ckpt-autodiff", "-o", path], input=forward)
        return path

    def compile_variant(self, name, source, budget):
        """bin/<name>@<budget>: returns the variant's manifest entry."""
        label = budget or "none"
        exe = f"{name}@{label}"
        command = [self.ckpt_compile, source, "--entry=loss_grad",
                   f"--backend={self.backend}", "-o", os.path.join(self.out, "bin", exe)]
        report = os.path.join(self.work, exe + ".json")
        if budget:
            command += [f"--remat-budget={budget}", f"--remat-report={report}"]
        start = time.time()
        result = subprocess.run(command, capture_output=True, text=True)
        seconds = time.time() - start
        if result.returncode != 0:
            if budget and "below the smallest peak found" in result.stderr:
                return {"budget": budget, "infeasible": result.stderr.strip().splitlines()[0]}
            raise PackageError(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
        entry = {"budget": label, "exe": "bin/" + exe, "compile_s": round(seconds, 1)}
        if budget:
            with open(report) as f:
                function = json.load(f)["functions"][0]
            entry.update(budget_bytes=function["budget_bytes"],
                         estimated_peak_bytes=function["peak_bytes"],
                         baseline_peak_bytes=function["baseline_peak_bytes"],
                         extra_flops=function["extra_flops"],
                         baseline_flops=function["baseline_flops"],
                         recompute_count=function["recompute_count"])
        return entry

    def cpu_build(self, name, source):
        """A CPU build of the program without remat, and its inputs' and
        outputs' description (the CUDA builds' --signature needs a GPU)."""
        exe = os.path.join(self.work, name + ".cpu")
        run([self.ckpt_compile, source, "--entry=loss_grad", "-o", exe])
        signature = json.loads(run([exe, "--signature"]))
        return exe, {"outputs": signature["outputs"], "inputs": signature["inputs"]}

    def cpu_reference(self, name, source):
        """ref/<name>.bin: the CPU build's outputs without remat, seed 1."""
        exe, entry = self.cpu_build(name, source)
        dump = os.path.join(self.out, "ref", name + ".bin")
        output = run([exe, "--iterations=1", "--seed=1", f"--dump-outputs={dump}"])
        peak = int(next(line.split("=")[1] for line in output.splitlines()
                        if line.startswith("peak_bytes=")))
        entry.update(reference="ref/" + name + ".bin", cpu_peak_bytes=peak)
        return entry

    def signature_only(self, name, source):
        """Input/output description of a benchmark program (no CPU run: the
        benchmark sizes are too big to execute here)."""
        return self.cpu_build(name, source)[1]

    def build(self, validation, benchmark, budgets, attention):
        manifest = {"created": time.strftime("%Y-%m-%d %H:%M:%S"), "backend": self.backend,
                    "seed": 1, "validation": {}, "benchmark": {}, "attention": {}}
        tasks = []
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            for name, (zoo_args, program_budgets) in validation.items():
                source = self.generate(name, zoo_args)
                program = manifest["validation"][name] = {"zoo": zoo_args, "variants": []}
                tasks.append((program, None, pool.submit(self.cpu_reference, name, source)))
                for budget in [None] + program_budgets:
                    tasks.append((program, "variants",
                                  pool.submit(self.compile_variant, name, source, budget)))
            for name, shape in benchmark.items():
                zoo_args = "transformer " + " ".join(f"--{k} {v}" for k, v in shape.items())
                source = self.generate(name, zoo_args)
                program = manifest["benchmark"][name] = {"zoo": zoo_args, "shape": shape,
                                                         "variants": []}
                tasks.append((program, None, pool.submit(self.signature_only, name, source)))
                for budget in [None] + BENCHMARK_BUDGETS_OF.get(name, budgets):
                    tasks.append((program, "variants",
                                  pool.submit(self.compile_variant, name, source, budget)))
            for name, shape in attention.items():
                zoo_args = "attention " + " ".join(
                    f"--{k}" if v is True else f"--{k} {v}" for k, v in shape.items())
                source = self.generate(name, zoo_args)
                program = manifest["attention"][name] = {"zoo": zoo_args, "shape": shape,
                                                         "variants": []}
                tasks.append((program, None, pool.submit(self.signature_only, name, source)))
                tasks.append((program, "variants",
                              pool.submit(self.compile_variant, name, source, None)))
            for program, key, future in tasks:
                result = future.result()
                if key:
                    program[key].append(result)
                else:
                    program.update(result)
        # Budgets the solver called infeasible are built at its minimum.
        for name, program in manifest["benchmark"].items():
            if any("infeasible" in v for v in program["variants"]) and not any(
                    v["budget"] == "min" for v in program["variants"]):
                source = os.path.join(self.out, "src", name + ".mlir")
                program["variants"].append(self.compile_variant(name, source, "min"))
        return manifest


def folder_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for file in files:
            total += os.path.getsize(os.path.join(root, file))
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m ckpt.gpu_package",
        description="Build the folder one GPU validation and benchmark run needs.")
    parser.add_argument("--build", default="build", help="ckpt build directory")
    parser.add_argument("--out", default="gpu-package", help="folder to create")
    parser.add_argument("--quick", action="store_true",
                        help="one small program and a tiny benchmark (for tests)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel compilations")
    parser.add_argument("--backend", default="cuda", choices=["cuda", "cpu"],
                        help="cpu: the same package with CPU builds, to test it and "
                             "its checks without a GPU")
    args = parser.parse_args(argv)

    start = time.time()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    try:
        packager = Packager(args.build, args.out, args.jobs, args.backend)
        if args.quick:
            manifest = packager.build(QUICK_VALIDATION, QUICK_BENCHMARK,
                                      QUICK_BENCHMARK_BUDGETS, QUICK_ATTENTION_BENCHMARK)
        else:
            manifest = packager.build(VALIDATION, BENCHMARK, BENCHMARK_BUDGETS,
                                      ATTENTION_BENCHMARK)
    except PackageError as error:
        print(f"gpu_package: error: {error}", file=sys.stderr)
        return 1
    shutil.rmtree(packager.work)
    # Kernels compress well (a 8 MiB executable of 1289 kernels is 0.3 MiB
    # as xz): the executables travel as bin.tar.xz, which gpu_check.py
    # unpacks.
    with tarfile.open(os.path.join(args.out, "bin.tar.xz"), "w:xz") as archive:
        archive.add(os.path.join(args.out, "bin"), arcname="bin")
    shutil.rmtree(os.path.join(args.out, "bin"))
    for file in ("gpu_check.py", "torch_gpt.py", "torch_attention.py", "run.sh"):
        shutil.copy(os.path.join(HERE, "gpu", file), os.path.join(args.out, file))
    shutil.copy(os.path.join(HERE, "inputs.py"), os.path.join(args.out, "ckpt_inputs.py"))
    os.chmod(os.path.join(args.out, "run.sh"), 0o755)
    manifest["package_seconds"] = round(time.time() - start, 1)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    size = folder_bytes(args.out)
    variants = sum(len(p["variants"]) for group in ("validation", "benchmark", "attention")
                   for p in manifest[group].values())
    print(f"gpu_package: {args.out}: {variants} {args.backend} builds, {size / 2**20:.1f} MiB "
          f"(limit 64 MiB), {manifest['package_seconds']} s")
    if size > LIMIT_BYTES:
        print(f"gpu_package: error: {args.out} is {size} bytes, over the 64 MiB a GPU "
              f"run can take", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
