"""ckpt.torch: PyTorch training steps imported through torch-mlir,
rematerialized, executed and checked against PyTorch's autograd.

scripts/test.sh sets CKPT_REQUIRE_TORCH=1 (setup-deps installs torch and
torch-mlir), so a missing dependency fails the suite instead of skipping it.
"""

import copy
import os
import re
import subprocess

import numpy

from torch_required import torch  # noqa: E402 (skips or fails here)

import ckpt
import ckpt.torch
from ckpt.torch.models import EXAMPLES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))


def export(name, **sizes):
    model, inputs, targets, loss = EXAMPLES[name](**sizes)
    step = ckpt.torch.export_training_step(model, inputs, loss, targets=targets)
    return model, inputs, targets, loss, step


def check_against_autograd(name, budget, solver="auto", **sizes):
    """Runs the exported step without and with remat on the model's own
    inputs: outputs bit-identical, equal to eager autograd within fp32
    tolerance, measured peak within the budget."""
    model, inputs, targets, loss, step = export(name, **sizes)
    args = step.arguments(model, inputs, targets)
    expected = ckpt.torch.reference(model, inputs, loss, targets)
    baseline = ckpt.run(step.mlir, step.entry, inputs=args, iterations=1)
    remat = ckpt.run(step.mlir, step.entry, inputs=args, iterations=1, budget=budget,
                     solver=solver)
    assert len(remat.outputs) == len(expected) == len(step.result_names)
    for result, plain, rematerialized, reference in zip(step.result_names, baseline.outputs,
                                                        remat.outputs, expected):
        assert plain.dtype == rematerialized.dtype and plain.shape == rematerialized.shape
        assert plain.tobytes() == rematerialized.tobytes(), result
        numpy.testing.assert_allclose(rematerialized, reference, rtol=1e-4, atol=1e-5,
                                      err_msg=result)
    report = remat.report["functions"][0]
    assert report["recompute_count"] > 0
    assert remat.peak_bytes <= report["budget_bytes"] < baseline.peak_bytes
    return baseline, remat


def test_gpt_step_at_half_the_peak():
    baseline, remat = check_against_autograd("gpt", "0.5")
    assert remat.peak_bytes <= 0.5 * baseline.peak_bytes


def test_resnet_step_rematerialized():
    baseline, remat = check_against_autograd("resnet", "0.5", solver="auto")
    assert remat.peak_bytes <= 0.5 * baseline.peak_bytes


def test_ckpt_run_compare_on_the_exported_file(tmp_path):
    _, _, _, _, step = export("gpt")
    path = tmp_path / "gpt-step.mlir"
    path.write_text(step.mlir)
    out = subprocess.run([os.path.join(BUILD, "bin", "ckpt-run"), str(path),
                          f"--entry={step.entry}", "--backend=cpu", "--compare",
                          "--remat-budget=0.5", "--iterations=1"],
                         check=True, capture_output=True, text=True).stdout
    assert "outputs_identical=yes" in out and "within_budget=yes" in out
    assert float(re.search(r"peak_ratio=([0-9.]+)", out).group(1)) <= 0.5


def test_parameters_buffers_inputs_and_targets_are_arguments():
    model, inputs, targets, _, step = export("gpt")
    parameters = [n for n, _ in model.named_parameters()]
    assert step.argument_names == ([f"param:{n}" for n in parameters] + ["buffer:" + n for n, _ in
                                   model.named_buffers()] + ["input:0", "target:0"])
    assert step.result_names == ["loss"] + [f"grad:{n}" for n in parameters]
    signature = re.search(r"func\.func @train_step\(([^)]*)\)", step.mlir).group(1)
    assert signature.count("%arg") == len(step.argument_names)
    assert "dense_resource" not in step.mlir and "tm_tensor" not in step.mlir


def test_buffer_updates_are_results():
    """BatchNorm's running statistics come out of the functional export as
    the step's last results (their values after the step), equal to eager
    PyTorch's update; the step's arguments are not written."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
    x, y = torch.randn(8, 4), torch.randn(8, 4)
    loss = lambda out, y: ((out - y) ** 2).mean()  # noqa: E731
    step = ckpt.torch.export_training_step(model, (x,), loss, targets=(y,))
    assert step.updated_buffers == ["1.running_mean", "1.running_var",
                                    "1.num_batches_tracked"]
    assert step.result_names[-3:] == [f"buffer:{n}" for n in step.updated_buffers]
    args = step.arguments(model, (x,), (y,))
    before = [a.copy() for a in args]
    outputs = ckpt.run(step.mlir, step.entry, inputs=args, iterations=1).outputs
    assert all((a == b).all() for a, b in zip(args, before))
    reference = copy.deepcopy(model)
    loss(reference(x), y)
    for name, value in zip(step.updated_buffers, outputs[-3:]):
        numpy.testing.assert_allclose(value, reference.state_dict()[name].numpy(), rtol=1e-6,
                                      err_msg=name)
