"""python3 -m ckpt sweep: budgets, table, Pareto plot."""

import os
import subprocess
import sys

import pytest

from ckpt import sweep

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEP = os.path.join(ROOT, "test", "Remat", "Inputs", "step.mlir")


def test_parse_budgets():
    assert sweep.parse_budgets("0.2:1.0:0.2") == ["0.20", "0.40", "0.60", "0.80", "1.00"]
    assert sweep.parse_budgets("0.9, 512MiB,min") == ["0.9", "512MiB", "min"]
    for bad in ("0:1:0.1", "0.5:0.2:0.1", "0.1:0.5", ",", "0.2:1.0:0"):
        with pytest.raises(ValueError):
            sweep.parse_budgets(bad)


def test_sweep_command(tmp_path):
    plot = tmp_path / "pareto.png"
    out = subprocess.run(
        [sys.executable, "-m", "ckpt", "sweep", STEP, "--entry=step", "--budgets=0.85,0.95,0.1",
         "--solver=greedy", "--iterations=1", f"--plot={plot}", f"--json={tmp_path / 'rows.json'}"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1].split()[0] == "none" and "reference" in lines[1]
    rows = {line.split()[0]: line for line in lines[1:] if line.strip() and
            not line.startswith("plot")}
    assert "bit-identical" in rows["0.95"] and "bit-identical" in rows["min"]
    assert "infeasible: below the smallest peak found" in rows["0.1"]
    assert "auto" in rows
    assert plot.stat().st_size > 10000  # a rendered PNG, not an empty file
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sweep_errors():
    run = lambda *args: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "ckpt", *args], capture_output=True, text=True,
        env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    assert run("sweep", STEP, "--entry=step", "--budgets=2:3:1").returncode == 1
    missing = run("sweep", "/nonexistent.mlir", "--entry=step")
    assert missing.returncode == 1 and "ckpt sweep: error" in missing.stderr
    assert run("launch").returncode == 2
