#!/usr/bin/env bash
# The full soak: the app under Xvfb for FRAMES frames (default 5000) while method, shape, G
# and selection change every 4 frames (normlab --soak). Prints resident/virtual memory and
# open file descriptors after warm-up and at the end; fails on 5 % growth or any validation
# message. Uses the main build (build/ or $NORMLAB_BUILD_DIR); figures in docs/robustness.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${NORMLAB_BUILD_DIR:-$root/build}"
frames="${1:-5000}"
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR}" ]; then
  export XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
fi
start=$(date +%s)
NORMLAB_VALIDATION="${NORMLAB_VALIDATION:-0}" xvfb-run -a -s "-screen 0 1600x900x24" \
  "$build/bin/normlab" --soak "$frames"
echo "soak.sh: $frames frames in $(( $(date +%s) - start )) s"
