#!/usr/bin/env bash
# Configures (once) and builds ckpt with Ninja against Debian's LLVM/MLIR 22.
# BUILD_DIR (default: build) and JOBS (default: all cores) can be overridden;
# CKPT_CMAKE_ARGS adds options when a build directory is configured (the
# sanitizer and fuzzer builds of scripts/sanitize.sh and scripts/fuzz.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

if [[ ! -f $build/build.ninja ]]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DLLVM_LIT_ARGS="-sv" ${CKPT_CMAKE_ARGS:-}
fi
ninja -C "$build" -j "$jobs" "$@"
