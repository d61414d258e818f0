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
bash "$root/scripts/build.sh" check-ckpt
