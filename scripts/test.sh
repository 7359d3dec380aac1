#!/usr/bin/env bash
# Installs what is missing, builds (the desktop build and the browser edition's site), and runs
# every test (ctest), the fuzzers and the sanitizer suite; exits non-zero on any failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Runs one step and prints its wall time, so that a slow step shows in the log.
step() {
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "== test.sh: $name took $((SECONDS - start)) s"
}
step "install-deps" "$root/scripts/install-deps.sh"
step "the desktop build" "$root/scripts/build.sh"
# The browser edition's site (build-web/site), which the tests labelled web open in Chromium.
step "the browser build" "$root/scripts/build-web.sh"
# vulkaninfo and Xvfb-based tests want a private runtime dir.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR}" ]; then
  export XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
fi
cd "$root/build"
step "ctest" ctest --output-on-failure --parallel "$(nproc)" --timeout 900

# Robustness (docs/robustness.md): the libFuzzer targets for FUZZ_SECONDS each (default 30),
# then the whole suite again under ASan + UBSan + LSan in build-asan/ and a CLI leak loop.
# NORMLAB_SKIP_ROBUSTNESS=1 skips both (a quick local run; CI never sets it).
if [ "${NORMLAB_SKIP_ROBUSTNESS:-0}" = 0 ]; then
  step "the fuzzers" "$root/scripts/fuzz.sh"
  step "the sanitizer suite" "$root/scripts/test-sanitizers.sh"
fi
echo "== test.sh: every step passed in $SECONDS s"
