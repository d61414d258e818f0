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

bash "$root/scripts/setup-deps.sh"
build_in_tree() {
  BUILD_DIR="$build" CKPT_CMAKE_ARGS="-DCKPT_SANITIZE=address,undefined" \
    bash "$root/scripts/build.sh" "$@"
}
if [[ $# -eq 0 ]]; then
  build_in_tree check-ckpt
else
  build_in_tree ckpt-opt ckpt-run ckpt-plan ckpt-compile \
    ckpt_runtime ckpt_runtime_static CkptPlugin CkptUnitTests
  paths=()
  for path in "$@"; do paths+=("$build/test/$path"); done
  /usr/lib/llvm-22/bin/lit -sv "${paths[@]}"
fi
