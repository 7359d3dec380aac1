#!/usr/bin/env bash
# Configures and builds normlab (Release) into build/ (or $NORMLAB_BUILD_DIR).
# Extra arguments are passed to cmake's configure step.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${NORMLAB_BUILD_DIR:-$root/build}"
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$build/Makefile" ]; then gen=(-G Ninja); fi
cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
