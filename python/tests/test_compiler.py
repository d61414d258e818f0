"""ckpt.remat and ckpt.plan through the native extension (C API)."""

import json
import re
import os
import subprocess
import sys

import pytest

import ckpt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEP = os.path.join(ROOT, "test", "Remat", "Inputs", "step.mlir")
CHAIN = os.path.join(ROOT, "test", "Planner", "Inputs", "tiny-chain.json")
BUILD = os.environ.get("CKPT_BUILD_DIR", os.path.join(ROOT, "build"))


def read(path):
    with open(path) as f:
        return f.read()


def zoo_training_step(*args):
    forward = subprocess.run([sys.executable, "-m", "ckpt.models", *args], check=True,
                             capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))).stdout
    return subprocess.run([os.path.join(BUILD, "bin", "ckpt-opt"), "--ckpt-autodiff"],
                          input=forward, check=True, capture_output=True, text=True).stdout


def test_remat_meets_the_budget_and_reports():
    text, report = ckpt.remat(read(STEP), budget="0.9", solver="greedy")
    assert "ckpt.recompute" in text
    function = report["functions"][0]
    assert function["name"] == "step"
    assert function["recompute_count"] >= 1
    assert function["peak_bytes"] <= function["budget_bytes"] < function["baseline_peak_bytes"]


def test_remat_zoo_mlp_with_policy():
    step = zoo_training_step("mlp", "--layers", "4", "--batch", "64", "--hidden", "32")
    text, report = ckpt.remat(step, budget="min", solver="auto", policy="save-matmuls",
                              time_limit=2)
    function = next(f for f in report["functions"] if f["name"] == "loss_grad")
    assert function["peak_bytes"] < function["baseline_peak_bytes"]
    assert "loss_grad" in text


def test_remat_options_are_the_one_list():
    options = ckpt.remat_options()
    definition = open(os.path.join(ROOT, "include", "ckpt", "Remat", "RematOptions.def")).read()
    keys = re.findall(r'CKPT_REMAT_(?:PASS_|LIST_)?OPTION\(\s*\w+,\s*"([a-z-]+)"', definition)
    assert sorted(key for key, *_ in options.values()) == sorted(keys)
    assert options["time_limit"][:3] == ("time-limit", "number", "10.0")
    # Every option is a keyword: target and report-format too.
    _, report = ckpt.remat(read(STEP), budget="0.9", solver="greedy", target="cpu",
                           report_format="json", time_limit=1, functions=["step"])
    assert report["target"] == "cpu"
    with pytest.raises(TypeError, match="unexpected keyword argument 'bugdet'"):
        ckpt.remat(read(STEP), budget="0.9", bugdet="0.5")


def test_remat_on_infeasible_min_applies_the_smallest_peak():
    # The budget no schedule meets is an error by default (below); with
    # on_infeasible="min" the smallest peak found is applied and reported.
    _, report = ckpt.remat(read(STEP), budget="0.1", solver="greedy", on_infeasible="min")
    function = report["functions"][0]
    assert function["budget_met"] is False
    assert function["budget_bytes"] < function["peak_bytes"] < function["baseline_peak_bytes"]
    _, smallest = ckpt.remat(read(STEP), budget="min", solver="greedy")
    assert smallest["functions"][0]["peak_bytes"] == function["peak_bytes"]
    assert smallest["functions"][0]["budget_met"] is True


def test_remat_errors_carry_diagnostics():
    with pytest.raises(ckpt.CkptError, match="invalid budget 'banana'"):
        ckpt.remat(read(STEP), budget="banana")
    with pytest.raises(ckpt.CkptError, match=r"<input>:1:\d+: error"):
        ckpt.remat("func.func @f( {", budget="0.5")
    with pytest.raises(ckpt.CkptError, match="below the smallest peak found"):
        ckpt.remat(read(STEP), budget="0.1", solver="greedy")
    with pytest.raises(ckpt.CkptError, match="unknown solver|solver"):
        ckpt.remat(read(STEP), budget="0.9", solver="simulated-annealing")
    with pytest.raises(ValueError):
        ckpt.remat(read(STEP), budget="0.5 solver=none")
    assert issubclass(ckpt.CkptError, RuntimeError)


def test_plan_from_path_dict_and_text():
    from_path = ckpt.plan(CHAIN, budget="80%", solver="chain-dp")
    assert from_path["feasible"] and from_path["solver"] == "chain-dp"
    assert from_path["peak_bytes"] <= from_path["budget_bytes"]
    graph = json.loads(read(CHAIN))
    assert ckpt.plan(graph, budget="80%", solver="chain-dp")["cost"] == from_path["cost"]
    assert ckpt.plan(read(CHAIN), budget="1.0", solver="none")["overhead"] == 0
    steps = from_path["schedule"]
    assert {s["op"] for s in steps} <= {"compute", "free"}


def test_plan_errors():
    with pytest.raises(ckpt.CkptError, match="unknown unit 'parsecs'"):
        ckpt.plan(CHAIN, budget="70 parsecs")
    with pytest.raises(ckpt.CkptError, match="missing array 'nodes'"):
        ckpt.plan({"links": []}, budget="0.5")
    with pytest.raises(ckpt.CkptError, match="smallest feasible peak"):
        ckpt.plan(CHAIN, budget="10%", solver="chain-dp")
    with pytest.raises(ckpt.CkptError, match="time-limit must be a positive number"):
        ckpt.plan(CHAIN, budget="0.9", time_limit=0)


def test_models_need_no_extension():
    # The zoo and the AOT helper import without touching the extension.
    out = subprocess.run([sys.executable, "-c",
                          "import ckpt.models, ckpt.aot, sys; "
                          "print('ckpt._ckpt' in sys.modules)"],
                         check=True, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))).stdout
    assert out.strip() == "False"
