#!/usr/bin/env bash
# README command (b): set-up, build, and every test (lit regression and
# execution tests plus the GoogleTest suites, through lit).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}

bash "$root/scripts/setup-deps.sh"
bash "$root/scripts/build.sh"
bash "$root/scripts/build.sh" CkptUnitTests

# lit exits non-zero on any failure and when it discovers no test at all.
/usr/lib/llvm-22/bin/lit -sv "$build/test" "$build/test/Unit"
