"""The package `pip install .` installs (pyproject.toml), used from outside
the source tree: the extension, the tools in ckpt/bin and the runtimes in
ckpt/lib, with nothing from the build directory.

scripts/test.sh installs it with pip into a folder and names that folder in
CKPT_INSTALLED_PACKAGE; without it these tests are skipped (a plain pytest
run in a checkout), unless CKPT_REQUIRE_INSTALLED_PACKAGE=1, which
scripts/test.sh sets so that a missing installation fails the run.
"""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEP = os.path.join(ROOT, "test", "Remat", "Inputs", "step.mlir")
INSTALLED = os.environ.get("CKPT_INSTALLED_PACKAGE")

if not INSTALLED:
    if os.environ.get("CKPT_REQUIRE_INSTALLED_PACKAGE") == "1":
        raise RuntimeError("CKPT_REQUIRE_INSTALLED_PACKAGE=1 but CKPT_INSTALLED_PACKAGE "
                           "names no installation (scripts/test.sh makes one)")
    pytest.skip("no installed package (CKPT_INSTALLED_PACKAGE)", allow_module_level=True)


def clean_environment():
    """The installation alone on the path: no checkout, no build directory."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CKPT_BUILD_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = INSTALLED
    return env


def installed_python(code, tmp_path):
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=clean_environment(),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_extension_and_tools_come_from_the_installation(tmp_path):
    out = installed_python(
        "import ckpt, ckpt.compiler, ckpt.tools, json\n"
        "print(json.dumps([ckpt.__file__, ckpt.compiler._ckpt.__file__,\n"
        "                  ckpt.tools.find_tool('ckpt-compile')]))\n", tmp_path)
    package, extension, tool = json.loads(out)
    package_dir = os.path.join(os.path.realpath(INSTALLED), "ckpt")
    for path in (package, extension, tool):
        assert os.path.realpath(path).startswith(package_dir + os.sep), path
    for name in ("libCkptCAPI.so", "libckpt_runtime.so", "libckpt_runtime_static.a"):
        assert os.path.exists(os.path.join(package_dir, "lib", name)), name


def test_installed_files_do_not_point_into_the_build(tmp_path):
    package_dir = os.path.join(INSTALLED, "ckpt")
    files = [os.path.join(package_dir, "bin", tool) for tool in
             ("ckpt-opt", "ckpt-plan", "ckpt-run", "ckpt-compile")]
    files += [os.path.join(package_dir, "lib", "libCkptCAPI.so")]
    files += [os.path.join(package_dir, f) for f in os.listdir(package_dir)
              if f.startswith("_ckpt") and f.endswith(".so")]
    for path in files:
        dynamic = subprocess.run(["readelf", "-d", path], check=True, capture_output=True,
                                 text=True).stdout
        paths = [line for line in dynamic.splitlines() if "RUNPATH" in line or "RPATH" in line]
        assert paths and not any(ROOT in line for line in paths), (path, paths)


def test_remat_plan_and_run_from_the_installation(tmp_path):
    out = installed_python(
        "import ckpt, json\n"
        f"module = open({STEP!r}).read()\n"
        "text, report = ckpt.remat(module, budget='0.9', solver='greedy')\n"
        "plain = ckpt.run(module, 'step', iterations=1)\n"
        "remat = ckpt.run(module, 'step', iterations=1, budget='0.9', solver='greedy')\n"
        "same = all(a.tobytes() == b.tobytes() for a, b in zip(plain.outputs, remat.outputs))\n"
        "print(json.dumps({'recomputes': report['functions'][0]['recompute_count'],\n"
        "                  'same': same, 'plain': plain.peak_bytes,\n"
        "                  'remat': remat.peak_bytes,\n"
        "                  'budget': remat.report['functions'][0]['budget_bytes']}))\n",
        tmp_path)
    figures = json.loads(out)
    assert figures["recomputes"] >= 1
    assert figures["same"]
    assert figures["remat"] <= figures["budget"] < figures["plain"]


def test_console_scripts_run_the_bundled_tools(tmp_path):
    scripts = os.path.join(INSTALLED, "bin")
    result = subprocess.run([os.path.join(scripts, "ckpt-opt"), STEP, "--remat-budget=0.9",
                             "--remat-solver=greedy"], cwd=tmp_path, env=clean_environment(),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "ckpt.recompute" in result.stdout
    result = subprocess.run([os.path.join(scripts, "ckpt-run"), STEP, "--entry=step",
                             "--iterations=1", "--compare", "--remat-budget=0.9"],
                            cwd=tmp_path, env=clean_environment(), capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
    assert "outputs_identical=yes" in result.stdout
