"""The PyTorch definitions the GPU package measures ckpt against
(python/ckpt/gpu/torch_gpt.py, torch_attention.py) compute what the zoo
programs compute: the batched GPT-style stack and the attention program
(causal, padding mask) give the same loss and gradients as ckpt's CPU
builds on the inputs ckpt's drivers generate, and a wrong reference (the
stack read as one sequence) does not. The GPU run relies on it when it
compares ckpt's CUDA builds with PyTorch on the device."""

import json
import os
import subprocess
import sys

import pytest

from torch_required import torch  # noqa: F401

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(ROOT, "python", "ckpt", "gpu"))

import gpu_check  # noqa: E402
import torch_attention  # noqa: E402
import torch_gpt  # noqa: E402


def build_and_run(tmp_path, zoo_args):
    """ckpt's CPU build of the zoo program's training step: its signature
    and its outputs on the inputs of seed 1."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    forward = subprocess.run([sys.executable, "-m", "ckpt.models"] + zoo_args.split(),
                             check=True, capture_output=True, text=True, env=env).stdout
    step = tmp_path / "step.mlir"
    subprocess.run([os.path.join(BUILD, "bin", "ckpt-opt"), "--ckpt-autodiff", "-o", str(step)],
                   input=forward, check=True, capture_output=True, text=True)
    exe = tmp_path / "step"
    subprocess.run([os.path.join(BUILD, "bin", "ckpt-compile"), str(step), "--entry=loss_grad",
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    signature = json.loads(subprocess.run([str(exe), "--signature"], check=True,
                                          capture_output=True, text=True).stdout)
    dump = tmp_path / "outputs.bin"
    subprocess.run([str(exe), "--iterations=1", "--seed=1", f"--dump-outputs={dump}"],
                   check=True, capture_output=True, text=True)
    return signature, gpu_check.read_outputs(str(dump), signature["outputs"])


def worst_error(ours, theirs):
    return max(gpu_check.relative_error(a, b) for a, b in zip(ours, theirs))


def test_batched_stack_equals_torch_gpt(tmp_path):
    signature, ours = build_and_run(
        tmp_path, "transformer --layers 2 --seq 16 --d 16 --heads 2 --batch 3")
    arrays = torch_gpt.ckpt_inputs([i["shape"] for i in signature["inputs"]], 1)
    assert worst_error(ours, torch_gpt.loss_and_gradients(arrays, 2, "cpu", batch=3)) < 1e-5
    for sdpa_reference in (False, True):
        torch_gpt.measure(1, 8, 16, 2, checkpoint=True, iterations=1, device="cpu",
                          sdpa=sdpa_reference, batch=2)
    # Read as one sequence of 48 positions, the reference differs.
    assert worst_error(ours, torch_gpt.loss_and_gradients(arrays, 2, "cpu", batch=1)) > 0.1


@pytest.mark.parametrize("zoo_args, causal", [
    ("attention --batch 2 --heads 3 --seq 20 --keys 27 --width 8 --value-width 6 --masked", False),
    ("attention --batch 1 --heads 2 --seq 33 --width 16 --causal --masked", True),
])
def test_attention_program_equals_torch_sdpa(tmp_path, zoo_args, causal):
    signature, ours = build_and_run(tmp_path, zoo_args)
    arrays = gpu_check.generate_inputs(signature["inputs"])
    assert worst_error(ours, torch_attention.loss_and_gradients(arrays, causal, "cpu")) < 1e-5
    # Without the padding mask the reference differs.
    assert worst_error(ours, torch_attention.loss_and_gradients(arrays[:3], causal, "cpu")) > 1e-3
