#!/usr/bin/env bash
# The compiler-level demo (README, after the main job): set-up, build, then
#  1. the compiler's prediction for the bundled training step (ckpt-report);
#  2. that step compiled with ckpt-cpu-pipeline and run on the ckpt runtime
#     by ckpt-run (the peak bytes really allocated, the named outputs);
#  3. rematerialization at several budgets on a zoo training step (8-layer
#     MLP, batch 256): measured peak, step time and whether every output is
#     bit-identical to the run without remat.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
model=${1:-$root/examples/mlp-train-step.mlir}

bash "$root/scripts/setup-deps.sh" >/dev/null
bash "$root/scripts/build.sh" ckpt-opt ckpt-run >/dev/null

entry=${ENTRY:-train_step}
echo "== ckpt-report: @$entry as the pipeline will allocate it"
"$build/bin/ckpt-opt" "$model" --ckpt-tensor-prep \
  --ckpt-report="functions=$entry target=${TARGET:-h100-sxm}" -o /dev/null
echo
echo "== ckpt-run: @$entry through ckpt-cpu-pipeline, run on the CPU (seeded inputs)"
"$build/bin/ckpt-run" "$model" --entry="$entry" --iterations=3 | grep -v '^output #'
echo
echo "== ckpt-remat: 8-layer MLP training step (batch 256, hidden 64) from the zoo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PYTHONPATH="$root/python" python3 -m ckpt.models mlp --layers 8 --batch 256 --hidden 64 |
  "$build/bin/ckpt-opt" --ckpt-autodiff -o "$work/step.mlir"
# One process: the step without remat, then with remat at each budget (the
# default solver, auto), each run on the same inputs; ckpt-run fails if an
# output is not bit-identical or a measured peak exceeds its budget.
"$build/bin/ckpt-run" "$work/step.mlir" --entry=loss_grad --iterations=5 \
    --compare --remat-budget=0.9,0.8,0.7,0.6,min > "$work/compare" 2> "$work/err" ||
  { cat "$work/compare" "$work/err"; exit 1; }
awk '
  /^baseline:/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); base[kv[1]] = kv[2] } }
  /^remat:/    { for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] } }
  /^peak_ratio=/ {
    for (i = 1; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
    rows[++n] = sprintf("%-8s %-12s %11s %10s %9s %12s %10s %s", r["budget"], r["solver"],
      r["peak_bytes"], r["peak_ratio"], r["recompute_count"], r["flop_overhead"],
      r["step_time_ratio"], r["outputs_identical"] == "yes" ? "bit-identical" : "DIFFERENT")
  }
  END {
    printf "%-8s %-12s %11s %10s %9s %12s %10s %s\n", "budget", "solver", "peak_bytes",
      "peak/base", "recomputed", "FLOP_overhead", "time/base", "outputs"
    printf "%-8s %-12s %11s %10s %9s %12s %10s %s\n", "none", "-", base["peak_bytes"],
      "1.000", 0, "0.00%", "1.000", "reference"
    for (i = 1; i <= n; i++) print rows[i]
  }' "$work/compare"
