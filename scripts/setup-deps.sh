#!/usr/bin/env bash
# Installs what ckpt needs to build and test on Debian 12 (run as root).
# Idempotent: packages already present are not reinstalled, and the package
# index is only refreshed when something is missing.
set -euo pipefail

# libopenblas-dev: the CPU GEMMs of gemm=blas (libckpt_blas_runtime; the
# pthread build; about 20 s and 100 MB installed here); libdnnl-dev
# (oneDNN 2.6): its f32 GEMMs (7 MB download, 40 MB installed, a few
# seconds); libomp-22-dev (LLVM's OpenMP runtime): the parallel loops of
# builds with num-threads above 1 (about 2 s).
packages=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22
  libzstd-dev ninja-build cmake libgtest-dev coinor-libcbc-dev
  libopenblas-dev libdnnl-dev libomp-22-dev
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "setup-deps: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup-deps: missing packages and not root; run as root or install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup-deps: all packages present"
fi

# Python packages (numpy: the ahead-of-time ctypes helper and the GPU
# package; nanobind: builds the ckpt._ckpt extension; pytest: python/tests;
# matplotlib: the budget sweep's Pareto plot; scikit-build-core: `pip
# install .`, which scripts/test.sh tests).
python_missing=()
for module in numpy nanobind pytest matplotlib scikit_build_core; do
  python3 -c "import $module" 2>/dev/null || python_missing+=("${module//_/-}")
done
if ((${#python_missing[@]})); then
  echo "setup-deps: installing ${python_missing[*]} with pip"
  python3 -m pip install -q --disable-pip-version-check "${python_missing[@]}"
fi

# Installs the pinned `name==version` specs with pip unless each package is
# installed at that version (a local label such as +cu132 aside).
pip_pinned() {
  if ! python3 - "$@" 2>/dev/null <<'PY'
import importlib.metadata as m, sys
specs = [spec.split("==") for spec in sys.argv[1:]]
sys.exit(any(m.version(name).split("+")[0] != version for name, version in specs))
PY
  then
    echo "setup-deps: installing $* with pip"
    python3 -m pip install -q --disable-pip-version-check "$@"
  fi
}

# The PyTorch frontend (python/ckpt/torch): torch from the package index and
# torch-mlir's FX importer. torch-mlir's nightly wheel pins an older torch;
# it works with this one, so it is installed without its dependencies
# (packaging is the one it needs). About 100 s and 5.5 GB the first time
# (torch pulls the CUDA libraries).
torch_version=2.15.0
torch_mlir_version=20261001
pip_pinned "torch==$torch_version"
if ! python3 -c "import torch_mlir.fx, packaging" 2>/dev/null; then
  echo "setup-deps: installing torch-mlir $torch_mlir_version with pip"
  python3 -m pip install -q --disable-pip-version-check --no-deps \
    "torch-mlir==$torch_mlir_version" packaging
fi

# Real models for ckpt.torch's coverage table and tests (ckpt.torch.zoo builds
# them from small configs; nothing is downloaded): transformers and the
# torchvision built for this torch, and ml_dtypes, which torch-mlir needs
# for bf16. About 10 s and 150 MB the first time here.
transformers_version=5.24.0
torchvision_version=0.29.2
ml_dtypes_version=0.7.0
pip_pinned "transformers==$transformers_version" "torchvision==$torchvision_version" \
  "ml_dtypes==$ml_dtypes_version" "torch==$torch_version"

# HiGHS (highspy), the independent Checkmate MILP that the planner's
# benchmark checks `auto` against (benchmarks/planner/checkmate_highs.py,
# test/Planner/checkmate-highs.test). About 5 s and 8 MB the first time
# here.
highspy_version=1.16.0
pip_pinned "highspy==$highspy_version"

# pytest-xdist: scripts/test.sh runs python/tests on both cores of the CI
# machine (pytest alone took 25 of CI's 33 minutes on one). About 3 s and
# 1 MB the first time here.
xdist_version=3.8.0
pip_pinned "pytest-xdist==$xdist_version"

# IREE's compiler and runtime tools (iree-compile, iree-run-module) from the
# package index: ckpt's output through IREE (test/Integration/IREE,
# ckpt-recompute-to-barrier). About 10 s and 390 MB the first time here.
iree_version=3.13.0
pip_pinned "iree-base-compiler==$iree_version" "iree-base-runtime==$iree_version"
