#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (ctest); exits non-zero on any failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
# vulkaninfo and Xvfb-based tests want a private runtime dir.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR}" ]; then
  export XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
fi
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
