#!/usr/bin/env bash
# Builds ckpt with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-asan/ (or $BUILD_DIR) and runs the whole lit + unit suite under them
# (the shared ASan runtime is preloaded into every test process; see
# test/sanitizer_env.py). Any report fails the test that triggered it.
#   bash scripts/sanitize.sh            # configure, build, run everything
#   bash scripts/sanitize.sh Remat/     # only some lit paths
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build-asan}
jobs=${JOBS:-$(nproc)}

bash "$root/scripts/setup-deps.sh"
if [[ ! -f $build/build.ninja ]]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DLLVM_LIT_ARGS="-sv" \
    -DCKPT_SANITIZE=address,undefined
fi
if [[ $# -eq 0 ]]; then
  ninja -C "$build" -j "$jobs" check-ckpt
else
  ninja -C "$build" -j "$jobs" ckpt-opt ckpt-run ckpt-plan ckpt-compile \
    ckpt_runtime ckpt_runtime_static CkptPlugin CkptUnitTests
  paths=()
  for path in "$@"; do paths+=("$build/test/$path"); done
  /usr/lib/llvm-22/bin/lit -sv "${paths[@]}"
fi
