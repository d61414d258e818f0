#!/usr/bin/env bash
# README command (a): set-up, build, then the main job on the bundled model:
# report the training step's memory and cost as the compiler predicts them,
# then compile it with ckpt-cpu-pipeline, run it with mlir-runner on the ckpt
# runtime, and print its outputs and the peak bytes really allocated.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
model=${1:-$root/examples/mlp-train-step.mlir}

bash "$root/scripts/setup-deps.sh" >/dev/null
bash "$root/scripts/build.sh" ckpt-opt ckpt_runtime >/dev/null

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
