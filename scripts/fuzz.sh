#!/usr/bin/env bash
# Builds the libFuzzer targets in tests/fuzz with clang into build-fuzz/ (or $NORMLAB_FUZZ_DIR):
# a CMake build with -DNORMLAB_FUZZ=ON of the Vulkan-free libraries they link (normlab_core, io,
# plan, train, classroom) under -fsanitize=fuzzer-no-link,address,undefined. Then runs each for
# $FUZZ_SECONDS seconds (default 30) starting from tests/fuzz/corpus/<target>/ (preset and
# experiment also from the shipped files in assets/presets/ and assets/experiments/).
# The targets run side by side, one per CPU. Fails on any finding; the crashing input is left in
# build-fuzz/findings/ — turn it into a regression test (tests/unit/test_fuzz_regressions.cpp)
# before fixing the bug.
#   scripts/fuzz.sh [target...]      targets: npy scene lesson preset experiment (default: all)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${NORMLAB_FUZZ_DIR:-$root/build-fuzz}"
seconds="${FUZZ_SECONDS:-30}"
cxx="${FUZZ_CXX:-clang++}"
targets=("$@")
all=(npy scene lesson preset experiment)
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  case "$t" in
    npy | scene | lesson | preset | experiment) ;;
    *) echo "fuzz.sh: unknown target '$t' (${all[*]})" >&2; exit 2 ;;
  esac
done
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$out/Makefile" ]; then gen=(-G Ninja); fi
cmake -S "$root" -B "$out" "${gen[@]}" -DNORMLAB_FUZZ=ON -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$out" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
mkdir -p "$out/findings"

# One target's run: its summary line on stdout, its failure report on stderr, exit 1 on a finding.
fuzz_one() {
  local t="$1"
  # New inputs go to a scratch corpus; the committed seeds are only read.
  mkdir -p "$out/corpus/$t"
  local seeds=("$root/tests/fuzz/corpus/$t")
  case "$t" in preset | experiment) seeds+=("$root/assets/${t}s") ;; esac
  local log="$out/fuzz_$t.log" rc
  set +e
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$out/bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$out/findings/$t-" "$out/corpus/$t" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  set -e
  local execs cov
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ $rc -ne 0 ]; then
    echo "FAIL: fuzz_$t found a problem (exit $rc); input in $out/findings/, log $log:" >&2
    grep -A40 -m1 -E 'ERROR:|runtime error|deadly signal|Sanitizer' "$log" >&2 || tail -40 "$log" >&2
    return 1
  fi
  echo "fuzz_$t: ${execs} executions in ${seconds}s, ${cov:-cov ?}, no findings"
}

# Each fuzzer is one process on one core: run as many at a time as there are CPUs, and report in
# the targets' order.
jobs=$(nproc)
pids=()
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  echo "== fuzz $t for ${seconds}s"
  fuzz_one "$t" >"$out/fuzz_$t.summary" 2>"$out/fuzz_$t.failure" &
  pids+=("$!")
done
status=0
for i in "${!targets[@]}"; do
  t="${targets[$i]}"
  if wait "${pids[$i]}"; then cat "$out/fuzz_$t.summary"; else cat "$out/fuzz_$t.failure" >&2; status=1; fi
done
exit $status
