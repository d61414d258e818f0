"""ckpt.run: ahead-of-time build, call from Python, ckpt-run's figures."""

import os
import re
import subprocess

import numpy
import pytest

import ckpt
from ckpt.inputs import generate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))
STEP = os.path.join(ROOT, "test", "Remat", "Inputs", "step.mlir")


def fnv1a(data):
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & ((1 << 64) - 1)
    return value


def ckpt_run(*args):
    out = subprocess.run([os.path.join(BUILD, "bin", "ckpt-run"), STEP, "--entry=step",
                          "--iterations=1", *args], check=True, capture_output=True,
                         text=True).stdout
    peak = int(re.search(r"peak_bytes=(\d+)", out).group(1))
    checksum = int(re.search(r"checksum=0x([0-9a-f]+)", out).group(1), 16)
    return peak, checksum


def test_run_matches_ckpt_run():
    # The entry is called `step`, as glibc's step(): the library must call its
    # own (it did not before ckpt-compile bound its symbols: a crash).
    with open(STEP) as f:
        module = f.read()
    result = ckpt.run(module, "step", iterations=2)
    peak, checksum = ckpt_run()
    assert result.peak_bytes == peak
    assert result.step_peak_bytes < peak
    assert fnv1a(result.outputs[0].tobytes()) == checksum
    assert result.step_time_s > 0 and result.report is None

    remat = ckpt.run(module, "step", iterations=1, budget="0.9", solver="greedy")
    peak, checksum = ckpt_run("--remat-budget=0.9", "--remat-solver=greedy")
    assert remat.peak_bytes == peak <= remat.report["functions"][0]["budget_bytes"]
    assert fnv1a(remat.outputs[0].tobytes()) == checksum  # bit-identical


def test_run_on_given_inputs_and_errors():
    with open(STEP) as f:
        module = f.read()
    inputs = generate([((32, 32), "f32"), ((32, 32), "f32")], seed=7)
    doubled = ckpt.run(module, "step", inputs=[inputs[0], inputs[1]], iterations=1)
    again = ckpt.run(module, "step", inputs=inputs, iterations=1)
    assert numpy.array_equal(doubled.outputs[0], again.outputs[0])
    # Two threads: the loops compute each element as one thread does.
    threaded = ckpt.run(module, "step", inputs=inputs, iterations=1, threads=2)
    assert all(numpy.array_equal(a, b) for a, b in zip(threaded.outputs, again.outputs))
    with pytest.raises(RuntimeError, match="--num-threads=0: expected 1 to 4096"):
        ckpt.run(module, "step", threads=0)
    with pytest.raises(RuntimeError, match="no function '@nothere'"):
        ckpt.run(module, "nothere")
    with pytest.raises(RuntimeError, match="below the smallest peak found"):
        ckpt.run(module, "step", budget="0.1", solver="greedy")
    with pytest.raises(TypeError, match="argument #0"):
        ckpt.run(module, "step", inputs=[numpy.zeros((2, 2), numpy.float32), inputs[1]])
    with pytest.raises(ValueError):
        ckpt.run(module, "step", iterations=0)


def test_inputs_match_the_tools():
    # ckpt.inputs is ckpt-run's generator: its arrays give ckpt-run's output.
    with open(STEP) as f:
        module = f.read()
    result = ckpt.run(module, "step", inputs=generate([((32, 32), "f32")] * 2, seed=1))
    assert fnv1a(result.outputs[0].tobytes()) == ckpt_run()[1]
    ints = generate([((5,), "i64"), ((3,), "i1")], seed=3)
    assert ints[0].dtype == numpy.int64 and ints[0].max() < 16
    assert set(ints[1].tolist()) <= {0, 1}
