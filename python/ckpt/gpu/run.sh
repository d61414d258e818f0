#!/usr/bin/env bash
# GPU validation and benchmark of this ckpt package (see gpu_check.py):
#   bash run.sh [--iterations N] [--skip-torch] ...
# Needs the CUDA driver, cuBLAS (the CUDA toolkit's, or PyTorch's nvidia
# packages), python3 with numpy, and PyTorch for the PyTorch rows. Writes
# results.json next to this script.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
# cuBLAS: the toolkit's, else the one PyTorch's packages bring.
paths="$cuda/lib64:$cuda/lib"
if ! ls "$cuda"/lib64/libcublas.so.* "$cuda"/lib/libcublas.so.* > /dev/null 2>&1; then
  extra=$(python3 -c "import glob, site, os; print(':'.join(sorted({os.path.dirname(p) for d in site.getsitepackages() for p in glob.glob(d + '/nvidia/**/libcublas.so.*', recursive=True)})))" 2>/dev/null)
  paths="$paths:$extra"
fi
export LD_LIBRARY_PATH="$paths${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
python3 "$here/gpu_check.py" "$@"
