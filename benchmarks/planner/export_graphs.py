#!/usr/bin/env python3
"""Writes the planner problems of real training steps as ckpt-plan graph JSON.

The zoo's steps (python3 -m ckpt.models ... | ckpt-opt --ckpt-autodiff) and
PyTorch models exported by ckpt.torch (Hugging Face and torchvision, from
ckpt.torch.zoo, small configs), each prepared as the pipelines do
(--ckpt-tensor-prep) and handed to ckpt-remat with graph=FILE: the problem
its planner solves (views and tuple elements alias their base there: one
node per group of ops sharing a buffer).

    PYTHONPATH=python python3 benchmarks/planner/export_graphs.py OUT_DIR \\
        [--models mlp,transformer,unet,resnet,gpt2-sdpa,bert]

Then, e.g., benchmarks/planner/checkmate_highs.py OUT_DIR/*.json.
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: The zoo's steps (those of test/Remat/remat-programs.test and the ResNet).
ZOO_STEPS = {
    "mlp": ["mlp", "--layers", "8", "--batch", "256", "--hidden", "64"],
    "transformer": ["transformer", "--layers", "4", "--seq", "64", "--d", "32", "--heads", "2"],
    "unet": ["unet", "--levels", "3", "--batch", "2", "--size", "32", "--channels", "4",
             "--in-channels", "2"],
    "resnet": ["resnet", "--blocks", "4", "--batch", "4", "--size", "16", "--channels", "16"],
}


def tool(build, name):
    return os.path.join(build, "bin", name)


def step_of(name, build):
    """(MLIR text of the differentiated step, entry)."""
    if name in ZOO_STEPS:
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        forward = subprocess.run([sys.executable, "-m", "ckpt.models"] + ZOO_STEPS[name],
                                 check=True, capture_output=True, text=True, env=env).stdout
        step = subprocess.run([tool(build, "ckpt-opt"), "--ckpt-autodiff"], input=forward,
                              check=True, capture_output=True, text=True).stdout
        return step, "loss_grad"
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from ckpt.torch import export_training_step
    from ckpt.torch.zoo import ZOO
    model, inputs, targets, loss_fn = ZOO[name]()
    step = export_training_step(model, inputs, loss_fn, targets=targets)
    return step.mlir, step.entry


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--models", default="mlp,transformer,unet,resnet,gpt2-sdpa,bert")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models.split(","):
        step, entry = step_of(name, args.build)
        prepared = subprocess.run([tool(args.build, "ckpt-opt"), "--ckpt-tensor-prep"],
                                  input=step, check=True, capture_output=True, text=True).stdout
        path = os.path.join(args.out, f"{name}.json")
        # The budget does not matter: the graph is written before planning.
        subprocess.run([tool(args.build, "ckpt-opt"),
                        f"--ckpt-remat=budget=1.0 solver=none functions={entry} graph={path}",
                        "-o", os.devnull], input=prepared, check=True, capture_output=True,
                       text=True)
        print(path, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
