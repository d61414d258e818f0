#!/usr/bin/env bash
# README command (b): set-up, build, and every test (lit regression and
# execution tests plus the GoogleTest suites, through lit).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

bash "$root/scripts/setup-deps.sh"
bash "$root/scripts/build.sh"

# check-ckpt builds what the tests need (tools, plugin, runtime, unit tests,
# generated docs) and runs lit, which exits non-zero on any failure and when
# it discovers no test at all.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
bash "$root/scripts/build.sh" check-ckpt 2>&1 | tee "$log" || status=$?

passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
echo "ckpt tests: ${passed:-0} passed, ${failed:-0} failed"
if [[ ${passed:-0} -eq 0 ]]; then
  echo "ckpt tests: no test passed" >&2
  exit 1
fi

# The package `pip install .` makes (pyproject.toml), installed into a
# temporary folder and tested from outside the checkout by
# python/tests/test_installed_package.py. It reuses the build directory
# (build-dir, with the tests kept in it), so it costs an install, not a
# second build; `pip install .` alone builds in build/pip.
installed=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$installed"' EXIT
install_status=0
python3 -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
  --target "$installed" -C build-dir="${BUILD_DIR:-$root/build}" \
  -C cmake.define.CKPT_BUILD_TESTS=ON "$root" || install_status=$?
if [[ $install_status -ne 0 ]]; then
  echo "ckpt tests: pip install of the package failed (exit $install_status)" >&2
  status=1
fi

# The Python API over the native extension (python/tests). pytest exits 5
# when it collects no test: that fails the run like any other failure (also
# under pytest-xdist, whose -n runs the tests on CKPT_TEST_JOBS processes, 2
# by default: the CI machine has two cores).
pytest_status=0
# CKPT_REQUIRE_TORCH: the PyTorch frontend's tests fail, not skip, when
# torch or torch-mlir is missing (setup-deps installs both).
CKPT_BUILD_DIR="${BUILD_DIR:-$root/build}" PYTHONPATH="$root/python" CKPT_REQUIRE_TORCH=1 \
  CKPT_INSTALLED_PACKAGE="$installed" CKPT_REQUIRE_INSTALLED_PACKAGE=1 \
  python3 -m pytest -q -p no:cacheprovider -n "${CKPT_TEST_JOBS:-2}" "$root/python/tests" \
  || pytest_status=$?
if [[ $pytest_status -eq 5 ]]; then
  echo "ckpt tests: pytest collected no test" >&2
elif [[ $pytest_status -ne 0 ]]; then
  echo "ckpt tests: pytest failed (exit $pytest_status)" >&2
fi
if [[ $status -eq 0 && $pytest_status -ne 0 ]]; then
  status=1
fi
exit "$status"
