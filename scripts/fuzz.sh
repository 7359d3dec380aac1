#!/usr/bin/env bash
# Builds the libFuzzer targets in tests/fuzz (clang, -fsanitize=fuzzer,address,undefined) into
# build-fuzz/ (or $NORMLAB_FUZZ_DIR) from only the engine sources they need (no Vulkan), then
# runs each for $FUZZ_SECONDS seconds (default 30) starting from tests/fuzz/corpus/<target>/.
# Fails on any finding; the crashing input is left in build-fuzz/findings/ — turn it into a
# regression test (tests/unit/test_fuzz_regressions.cpp) before fixing the bug.
#   scripts/fuzz.sh [target...]      targets: npy scene lesson (default: all; lesson only where
#                                    engine/src/lesson.cpp exists)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${NORMLAB_FUZZ_DIR:-$root/build-fuzz}"
seconds="${FUZZ_SECONDS:-30}"
cxx="${FUZZ_CXX:-clang++}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(npy scene)
  [ -f "$root/engine/src/lesson.cpp" ] && targets+=(lesson)
fi

# Engine sources each target needs (all plain C++: no Vulkan, no shaderc).
declare -A sources=(
  [npy]="npy atomic_file shape"
  [scene]="state npy atomic_file shape norm_spec norm_params stat_layout presets tensor_init"
  [lesson]="lesson experiments view_settings state npy atomic_file shape norm_spec norm_params stat_layout presets tensor_init"
)
flags=(-std=c++20 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
       -I"$root/engine/include")
mkdir -p "$out/obj" "$out/findings"

compile() {  # compile SRC OBJ [extra flags]: only when SRC is newer than OBJ
  local src=$1 obj=$2; shift 2
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$root/scripts/fuzz.sh" -nt "$obj" ] ||
     [ -n "$(find "$root/engine/include" -newer "$obj" -name '*.hpp' -print -quit)" ]; then
    "$cxx" "${flags[@]}" "$@" -c "$src" -o "$obj"
  fi
}

status=0
for t in "${targets[@]}"; do
  [ -n "${sources[$t]:-}" ] || { echo "fuzz.sh: unknown target '$t' (npy, scene, lesson)" >&2; exit 2; }
  objs=()
  for s in ${sources[$t]}; do
    compile "$root/engine/src/$s.cpp" "$out/obj/$s.o" -fsanitize=fuzzer-no-link
    objs+=("$out/obj/$s.o")
  done
  compile "$root/tests/fuzz/fuzz_$t.cpp" "$out/obj/fuzz_$t.o" -fsanitize=fuzzer
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "$out/obj/fuzz_$t.o" "${objs[@]}" -o "$out/fuzz_$t"

  # New inputs go to a scratch corpus; the committed seeds are only read.
  mkdir -p "$out/corpus/$t"
  log="$out/fuzz_$t.log"
  echo "== fuzz $t for ${seconds}s"
  set +e
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$out/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$out/findings/$t-" "$out/corpus/$t" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ $rc -ne 0 ]; then
    echo "FAIL: fuzz_$t found a problem (exit $rc); input in $out/findings/, log $log:" >&2
    grep -A40 -m1 -E 'ERROR:|runtime error|deadly signal|Sanitizer' "$log" >&2 || tail -40 "$log" >&2
    status=1
  else
    echo "fuzz_$t: ${execs} executions in ${seconds}s, ${cov:-cov ?}, no findings"
  fi
done
exit $status
