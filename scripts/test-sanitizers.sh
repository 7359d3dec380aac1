#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer:
# builds normlab with -DNORMLAB_SANITIZE=ON into build-asan/ (or $NORMLAB_ASAN_DIR) and runs
# ctest there (every label except soak: resident-memory figures mean nothing under ASan; web:
# the browser tests run no sanitized code but normlab-cli, which the other labels cover; and
# shader-variant: the random suites again with other shaders and the same host code, 5 minutes
# under ASan; the workgroup kernels' plan still runs here with 4 KiB slabs; layout-variant: the
# app's presenter layouts at other sizes and languages, the same host code as the app tests that run
# here; and the training lessons' whole runs, 2 minutes under ASan: their runs' host code, the Train
# view's slices and normlab-cli train, runs in the train and train-view tests). The GPU suite's slab,
# split and staged variants run fewer cases in this build (tests/CMakeLists.txt,
# tests/train/CMakeLists.txt). normlab-bench is not built here (bench_smoke runs it in the Release build).
# LeakSanitizer suppressions (third-party libraries only): tests/sanitizers/lsan.supp.
# Then runs the CLI $CLI_LOOP_RUNS times (default 100) on varied inputs with leak checking
# (scripts/cli-leak-loop.sh; the 1,000-run figure in docs/robustness.md comes from it too).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${NORMLAB_ASAN_DIR:-$root/build-asan}"
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$build/Makefile" ]; then gen=(-G Ninja); fi
# -O1 with line tables only: what the sanitizers need for their reports, and half the compile time
# of -O2 -g, which made this build the longest step of scripts/test.sh.
flags="-O1 -g1 -DNDEBUG"
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNORMLAB_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" >/dev/null
cmake --build "$build" --parallel "$(nproc)"

if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR}" ]; then
  export XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
fi
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
(cd "$build" && ctest --output-on-failure --parallel "$(nproc)" --timeout 900 \
  -LE "soak|web|shader-variant|layout-variant" -E "^train-lessons: ?train lessons and experiments")
NORMLAB_CLI="$build/bin/normlab-cli" "$root/scripts/cli-leak-loop.sh" "${CLI_LOOP_RUNS:-100}"
