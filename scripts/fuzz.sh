#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/) with ASan and UBSan into build-fuzz/
# (or $BUILD_DIR) and runs each on a copy of its seed corpus.
#   bash scripts/fuzz.sh                      # both, 1,000,000 runs each
#   RUNS=20000 bash scripts/fuzz.sh remat     # one harness, fewer runs
#   SECONDS_EACH=600 bash scripts/fuzz.sh     # a time limit instead
# Harnesses: graph-json (ckpt-plan's reader, then greedy/uniform plans
# checked by the validator), remat (parse -> verify -> tensor preparation ->
# ckpt-remat -> bufferization with ckpt-lower-recompute). Crashes are saved
# as crash-* files in the working corpus directory; the script then fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
runs=${RUNS:-1000000}
harnesses=("$@")
[[ ${#harnesses[@]} -eq 0 ]] && harnesses=(graph-json remat)

bash "$root/scripts/setup-deps.sh"
targets=()
for harness in "${harnesses[@]}"; do targets+=("ckpt-fuzz-$harness"); done
BUILD_DIR="$build" \
  CKPT_CMAKE_ARGS="-DCKPT_SANITIZE=address,undefined -DCKPT_ENABLE_FUZZERS=ON" \
  bash "$root/scripts/build.sh" "${targets[@]}"

# allow_user_poisoning=0: see test/sanitizer_env.py (LLVM's allocator poisoning
# in instrumented code meets libMLIR's uninstrumented allocator).
export ASAN_OPTIONS=detect_leaks=0:detect_container_overflow=0:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for harness in "${harnesses[@]}"; do
  work="$build/fuzz-$harness"
  mkdir -p "$work/corpus"
  cp -n "$root/fuzz/corpus/$harness/"* "$work/corpus/" 2>/dev/null || true
  limit=(-runs="$runs")
  [[ -n ${SECONDS_EACH:-} ]] && limit=(-max_total_time="$SECONDS_EACH")
  echo "== fuzzing $harness: ${limit[*]}"
  (cd "$work" && "$build/bin/ckpt-fuzz-$harness" "${limit[@]}" -max_len=65536 \
     -print_final_stats=1 corpus) 2>&1 | tee "$work/log" | grep -E "^#[0-9]+.*(DONE|pulse)|stat::|ERROR|crash" || true
  if ls "$work"/crash-* >/dev/null 2>&1; then
    echo "fuzz: $harness crashed; inputs in $work" >&2
    exit 1
  fi
done
