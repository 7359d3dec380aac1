#!/usr/bin/env bash
# The browser bench: normlab's WGSL kernels against a WGSL copy of the same bytes and against
# onnxruntime-web's WebGPU execution provider, in one headless Chromium run on WebGPU (SwiftShader
# here), at 16×64×64×64, plus the page's recompute at 8×32×32×32. Builds the site first when its
# bench is missing (scripts/build-web.sh), makes the ONNX models (bench/web_models.py), writes
# build/bench-web.json and prints a table (tests/web/bench.mjs). --quick: the small shape;
# --cases=layer-CHW,rms: only those cases (batch-train, batch-eval, layer-CHW, instance, group-8, rms).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
site="${NORMLAB_WEB_SITE:-$root/build-web/site}"
if [ ! -s "$site/bench.js" ] || [ ! -s "$site/bench.wasm" ] || [ ! -d "$root/web/node_modules/onnxruntime-web" ]; then
  "$root/scripts/build-web.sh"
fi
args=()
out="$root/build/bench-web.json"
for a in "$@"; do
  case "$a" in
    --quick) args+=(--quick) out="$root/build/bench-web-quick.json" ;;
    --cases=*) args+=(--cases "${a#--cases=}") ;;
    *) echo "bench-web: unknown argument $a (--quick, --cases=NAME,NAME)" >&2; exit 2 ;;
  esac
done
NORMLAB_WEB_SITE="$site" node "$root/tests/web/bench.mjs" "${args[@]}" --out "$out"
