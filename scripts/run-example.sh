#!/usr/bin/env bash
# README command (a), the main job: set-up and build (once), then a Hugging
# Face GPT-2-style model (a small config in the package; nothing is
# downloaded) trained for 20 AdamW steps with PyTorch eager, with
# torch.utils.checkpoint per block, and with ckpt.torch.TrainStep at
# budgets none, 0.5 and min: one table (measured peak memory, median step
# time, final loss, largest loss difference from eager) and ckpt-demo.png.
# Arguments go to `python3 -m ckpt demo` (e.g. --model resnet18 --budgets 0.6).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}

bash "$root/scripts/setup-deps.sh" >/dev/null
bash "$root/scripts/build.sh" ckpt-compile >/dev/null
CKPT_BUILD_DIR=$build PYTHONPATH="$root/python" python3 -m ckpt demo "$@"
