#!/usr/bin/env bash
# One run, side by side: normlab-bench on this machine's Vulkan device and PyTorch's CPU
# kernels (Debian's python3-torch, 2 threads) on the same cases and shapes.
# Writes docs/bench/<name>.json and .md. Usage: scripts/bench-vs-torch.sh [name] [normlab-bench args]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
name="${1:-lavapipe}"
shift || true
out="$root/docs/bench"
mkdir -p "$out"
"$root/scripts/build.sh" >/dev/null
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
  echo "installing python3-torch (a test-time tool for this comparison only)" >&2
  apt-get install -y -qq python3-torch >/dev/null
fi
"$root/build/bin/normlab-bench" --json "$out/$name.json" "$@"
/usr/bin/python3 "$root/bench/torch_bench.py" --cases "$out/$name.json" --out "$out/$name-torch.json" \
  --threads "$(nproc)"
python3 "$root/bench/report.py" "$out/$name.json" "$out/$name-torch.json" | tee "$out/$name.md"
