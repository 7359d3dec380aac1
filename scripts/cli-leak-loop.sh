#!/usr/bin/env bash
# Runs normlab-cli N times (default 1000) over a rotation of varied inputs — every method,
# generated/preset/.npy/scene inputs, NaN/Inf, outputs written, and invalid inputs that must
# exit 2, every 4th run with the validation layer on — and fails on any LeakSanitizer/ASan/UBSan
# report or unexpected exit status.
# Meant for the sanitizer build:  NORMLAB_CLI=build-asan/bin/normlab-cli scripts/cli-leak-loop.sh 1000
# (scripts/test-sanitizers.sh sets up ASAN_OPTIONS/LSAN_OPTIONS and runs it with 100).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${NORMLAB_CLI:-$root/build-asan/bin/normlab-cli}"
runs="${1:-1000}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seeds="$root/tests/fuzz/corpus"
cat >"$work/scene.json" <<'JSON'
{"normlab_scene": 1, "tensor": {"source": "generated", "shape": [2, 6, 3, 3], "init": "uniform", "seed": 5},
 "norm": {"method": "group", "groups": 2}, "selection": [1, 2, 0, 1]}
JSON
echo '{"normlab_scene": 1, "tensor": {"source": "file"}}' >"$work/bad_scene.json"

# "expected-exit|arguments" (the run number N is substituted for @ to vary shapes and seeds)
cases=(
  "0|--norm batch --shape 2,3,4,@ --seed @ --output $work/y.npy --stats $work/s.json --group-map $work/m.npy"
  "0|--norm layer --shape 1,2,@,3 --init uniform --seed @ --stats $work/s.json"
  "0|--norm instance --shape 2,2,2,@ --init arange --no-reference"
  "0|--norm group --groups 2 --shape 3,4,@,2 --seed @ --output $work/y.npy"
  "0|--norm rms --shape 2,3,@,4 --normalized-shape @,4"
  "0|--norm batch --mode eval --preset seed004-bn --stats $work/s.json"
  "0|--norm layer --input $seeds/npy/f4_4d.npy --output $work/y.npy"
  "0|--norm instance --input $seeds/npy/nan_inf.npy --stats $work/s.json"
  "0|--norm layer --shape 2,3,4,4 --init constant --value 3"
  "0|--scene $work/scene.json --output $work/y.npy"
  "2|--norm layer --input $seeds/npy/be_f4.npy --output $work/y.npy"
  "0|--norm layer --input $seeds/npy/f8_1d.npy"
  "2|--norm batch --input $seeds/npy/f8_1d.npy"
  "2|--norm group --groups 1000000000000 --shape 2,6,4,4"
  "2|--norm group --groups 4 --shape 2,6,@,4"
  "2|--scene $work/bad_scene.json"
  "2|--norm layer --shape 100000,100000,100000,100000"
  "2|--norm layer --input $work/missing.npy"
)
start=$(date +%s)
for ((i = 1; i <= runs; i++)); do
  entry="${cases[$(( (i - 1) % ${#cases[@]} ))]}"
  want="${entry%%|*}"
  n=$(( (i / ${#cases[@]}) % 5 + 1 ))
  args="${entry#*|}"
  args="${args//@/$n}"
  set +e
  # shellcheck disable=SC2086
  NORMLAB_VALIDATION=$(( i % 4 == 0 )) "$cli" -q $args >"$work/out.txt" 2>"$work/err.txt"
  rc=$?
  set -e
  if [ "$rc" != "$want" ] || grep -q -E 'Sanitizer|runtime error' "$work/err.txt"; then
    echo "FAIL: run $i: normlab-cli $args -> exit $rc (expected $want)" >&2
    head -60 "$work/err.txt" >&2
    exit 1
  fi
done
build_name="$(basename "$(dirname "$(dirname "$cli")")")"
echo "cli-leak-loop: $runs runs of normlab-cli ($build_name), ${#cases[@]} input kinds, no sanitizer report," \
  "$(( $(date +%s) - start )) s"
