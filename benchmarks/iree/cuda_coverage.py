"""Which training steps IREE's CUDA target compiles (ckpt-compile --backend=iree-cuda).

Builds each step with `ckpt-compile --backend=iree-cuda` for every
architecture asked for, without remat and (for the first architecture) with
ckpt's smallest-peak plan (`--remat-budget=min`: the recomputations behind
keyed barriers, as IREE receives them), and writes a Markdown table: compiled
or not, and for a failure IREE's first error, how many dispatches failed
and what kind of op they are. Steps: the zoo's MLP, GPT-style stack, ResNet
and U-Net, and Hugging Face GPT-2 (eager attention) and BERT through
ckpt.torch where torch, torch-mlir and transformers are installed.

No GPU is needed: iree-compile builds for CUDA anywhere; ckpt-compile reports
the modules unmeasured where no CUDA driver is (a memory budget needs one).

  PYTHONPATH=python python3 benchmarks/iree/cuda_coverage.py \\
      --output docs/IreeCudaCoverage.md
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

from ckpt import tools  # noqa: E402

ZOO = collections.OrderedDict([
    ("zoo MLP (8 layers, batch 256, hidden 64)",
     ["mlp", "--layers", "8", "--batch", "256", "--hidden", "64"]),
    ("zoo GPT-style stack (4 layers, seq 64, d 64, 4 heads)",
     ["transformer", "--layers", "4", "--seq", "64", "--d", "64", "--heads", "4",
      "--vocab", "256"]),
    ("zoo ResNet (4 blocks, batch 4, 16x16, 16 channels)",
     ["resnet", "--blocks", "4", "--batch", "4", "--size", "16", "--channels", "16"]),
    ("zoo U-Net (2 levels, batch 2, 16x16, 8 channels)",
     ["unet", "--levels", "2", "--batch", "2", "--size", "16", "--channels", "8"]),
])

HF = collections.OrderedDict([
    ("HF GPT-2 (eager attention) via ckpt.torch", ("gpt2", {"attention": "eager"})),
    ("HF BERT via ckpt.torch", ("bert", {})),
])


def zoo_step(arguments, path):
    """Writes the zoo model's differentiated step to `path`."""
    model = subprocess.run([sys.executable, "-m", "ckpt.models"] + arguments,
                           check=True, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    subprocess.run([tools.find_tool("ckpt-opt"), "--ckpt-autodiff", "-o", path],
                   input=model.stdout, check=True, capture_output=True, text=True)
    return "loss_grad"


def hf_step(name, options, path):
    """Writes a Hugging Face model's training step (ckpt.torch) to `path`."""
    import ckpt.torch
    from ckpt.torch import zoo
    model, inputs, targets, loss = getattr(zoo, name)(**options)
    step = ckpt.torch.export_training_step(model, inputs, loss, targets=targets)
    with open(path, "w") as out:
        out.write(step.mlir)
    return step.entry


def failure_summary(errors_text, source):
    """IREE's first error, and how many ops of what kind failed, from
    iree-compile's errors and the source it compiled."""
    errors = re.findall(r"^(\S+?):(\d+):\d+: error: (.*)$", errors_text, re.M)
    if not errors:
        first = next((line.strip() for line in errors_text.splitlines() if "error" in line),
                     errors_text.strip()[:200])
        return first[:120], ""
    own = [(int(line), message) for _, line, message in errors
           if not message.startswith("failed to run translation")
           and not message.startswith("failed to serialize")]
    message = own[0][1] if own else errors[0][2]
    lines = sorted({line for line, _ in own})
    kinds = collections.Counter()
    text = open(source).read().splitlines() if os.path.exists(source) else []
    for line in lines:
        op = text[line - 1] if 0 < line <= len(text) else ""
        match = re.search(r'iterator_types = \[([^\]]*)\]', op)
        if not match:
            kinds[op.split("=")[-1].split()[0] if "=" in op else "other"] += 1
            continue
        iterators = re.findall(r'"(\w+)"', match.group(1))
        if all(i == "reduction" for i in iterators):
            kinds["full reduction"] += 1
        elif "reduction" in iterators:
            kinds[f"reduction ({iterators.count('parallel')} parallel)"] += 1
        else:
            kinds["elementwise"] += 1
    where = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
    return message[:120], f"{len(lines)} ops: {where}"


def build(step, entry, arch, budget, work):
    """ckpt-compile --backend=iree-cuda; (compiled, seconds, error, failing ops)."""
    name = f"{arch}-{budget or 'none'}"
    command = [tools.find_tool("ckpt-compile"), step, f"--entry={entry}",
               "--backend=iree-cuda", f"--iree-cuda-target={arch}", "--keep-temps",
               "-o", os.path.join(work, name + ".vmfb")]
    if budget:
        command.append(f"--remat-budget={budget}")
    start = time.time()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.time() - start
    kept = re.search(r"temporaries in (\S+)", result.stderr)
    if result.returncode == 0:
        if kept:
            shutil.rmtree(kept.group(1), ignore_errors=True)
        return True, seconds, "", ""
    failing = re.search(r"(\S+)\.mlir -o \S+ failed", result.stderr)
    errors = result.stderr
    source = ""
    if failing and os.path.exists(failing.group(1) + ".err"):
        source = failing.group(1) + ".mlir"
        errors = open(failing.group(1) + ".err").read()
    message, ops = failure_summary(errors, source)
    if kept:
        shutil.rmtree(kept.group(1), ignore_errors=True)
    return False, seconds, message, ops


def cell(outcome):
    compiled, seconds, message, ops = outcome
    if compiled:
        return f"compiles ({seconds:.0f} s)"
    return f"fails: `{message}`" + (f" — {ops}" if ops else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archs", default="sm_80,sm_90",
                        help="comma-separated --iree-cuda-target values")
    parser.add_argument("--models", default="all",
                        help="comma-separated subset of: mlp, gpt, resnet, unet, gpt2, bert")
    parser.add_argument("--output", help="Markdown file to write (default: print)")
    options = parser.parse_args()
    archs = options.archs.split(",")
    short = {"mlp": 0, "gpt": 1, "resnet": 2, "unet": 3, "gpt2": 4, "bert": 5}
    names = list(ZOO) + list(HF)
    asked = [] if options.models == "all" else options.models.split(",")
    unknown = [m for m in asked if m not in short]
    if unknown:
        parser.error(f"--models: unknown {', '.join(unknown)}; expected some of "
                     f"{', '.join(short)} or all")
    chosen = [names[short[m]] for m in asked] if asked else names

    work = tempfile.mkdtemp(prefix="ckpt-iree-cuda-")
    rows = []
    for label in chosen:
        step = os.path.join(work, f"step{len(rows)}.mlir")
        try:
            if label in ZOO:
                entry = zoo_step(ZOO[label], step)
            else:
                entry = hf_step(*HF[label], step)
        except ImportError as error:
            rows.append((label, [f"not built: {error}"] * (len(archs) + 1)))
            continue
        cells = [cell(build(step, entry, arch, None, work)) for arch in archs]
        cells.append(cell(build(step, entry, archs[0], "min", work)))
        rows.append((label, cells))
        print(f"{label}: {' | '.join(cells)}", file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)

    version = subprocess.run([shutil.which("iree-compile") or "iree-compile", "--version"],
                             capture_output=True, text=True).stdout
    match = re.search(r"IREE compiler version (\S+)", version)
    header = ["step"] + [f"{a}, no remat" for a in archs] + [f"{archs[0]}, remat at min"]
    lines = [
        "# IREE's CUDA target on ckpt's training steps",
        "",
        "Generated by `PYTHONPATH=python python3 benchmarks/iree/cuda_coverage.py "
        "--output docs/IreeCudaCoverage.md` with iree-compile "
        f"{match.group(1) if match else 'unknown'}: `ckpt-compile --backend=iree-cuda "
        "--iree-cuda-target=ARCH` (ckpt's tensor preparation, then iree-compile "
        "`--iree-hal-target-device=cuda --iree-cuda-target=ARCH`), without remat and "
        "with ckpt's smallest-peak plan (`--remat-budget=min`: recomputations "
        "behind keyed barriers). Compiling needs no GPU; the failures are IREE's, "
        "reduced to the reproducers in [docs/iree-cuda/](iree-cuda/) "
        "(`test/Integration/IREE/cuda-reproducers.test` checks that they still "
        "fail, so this page goes stale loudly).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for label, cells in rows:
        lines.append("| " + " | ".join([label] + cells) + " |")
    lines += [
        "",
        "Failing ops are counted by the line IREE reports, and classified by "
        "the iterator types of the `linalg.generic` on that line of the prepared "
        "step.",
        "",
    ]
    text = "\n".join(lines)
    if options.output:
        with open(options.output, "w") as out:
            out.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
