#!/usr/bin/env bash
# README command (a): set-up, build, then the main job:
#  1. the compiler's prediction for the bundled training step (ckpt-report);
#  2. that step compiled with ckpt-cpu-pipeline and run on the ckpt runtime
#     (outputs and the peak bytes really allocated);
#  3. rematerialization at several budgets on a zoo training step (8-layer
#     MLP, batch 256): measured peak, step time and whether every output is
#     bit-identical to the run without remat.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
model=${1:-$root/examples/mlp-train-step.mlir}

bash "$root/scripts/setup-deps.sh" >/dev/null
bash "$root/scripts/build.sh" ckpt-opt ckpt-run ckpt_runtime >/dev/null

lib=/usr/lib/llvm-22/lib
entry=${ENTRY:-train_step}
echo "== ckpt-report: @$entry as the pipeline will allocate it"
"$build/bin/ckpt-opt" "$model" --ckpt-tensor-prep \
  --ckpt-report="functions=$entry target=${TARGET:-h100-sxm}" -o /dev/null
echo
echo "== ckpt: $model through ckpt-cpu-pipeline, run on the CPU"
"$build/bin/ckpt-opt" "$model" --ckpt-cpu-pipeline |
  /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
    -shared-libs="$build/lib/libckpt_runtime.so,$lib/libmlir_c_runner_utils.so,$lib/libmlir_runner_utils.so"

echo
echo "== ckpt-remat: 8-layer MLP training step (batch 256, hidden 64) from the zoo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PYTHONPATH="$root/python" python3 -m ckpt.models mlp --layers 8 --batch 256 --hidden 64 |
  "$build/bin/ckpt-opt" --ckpt-autodiff -o "$work/step.mlir"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
run() { "$build/bin/ckpt-run" "$work/step.mlir" --entry=loss_grad --iterations=5 "$@"; }
run > "$work/none"
base_peak=$(sed -n 's/^peak_bytes=//p' "$work/none")
base_time=$(sed -n 's/^median_step_time_s=\([^ ]*\).*/\1/p' "$work/none")
printf '%-8s %12s %10s %14s %10s %s\n' budget peak_bytes peak/base median_time_s time/base outputs
printf '%-8s %12s %10s %14s %10s %s\n' none "$base_peak" 1.000 "$base_time" 1.000 reference
for budget in 0.9 0.8 0.7 0.6; do
  if run --remat-budget="$budget" > "$work/$budget" 2> "$work/$budget.err"; then
    peak=$(sed -n 's/^peak_bytes=//p' "$work/$budget")
    time=$(sed -n 's/^median_step_time_s=\([^ ]*\).*/\1/p' "$work/$budget")
    same=$(diff <(grep checksum "$work/none") <(grep checksum "$work/$budget") >/dev/null &&
           echo bit-identical || echo DIFFERENT)
    printf '%-8s %12s %10s %14s %10s %s\n' "$budget" "$peak" \
      "$(ratio "$peak" "$base_peak")" "$time" "$(ratio "$time" "$base_time")" "$same"
  else
    printf '%-8s %s\n' "$budget" "$(sed 's/^.*error: //' "$work/$budget.err" | head -1)"
  fi
done
