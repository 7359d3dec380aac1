#!/usr/bin/env bash
# normlab-bench and PyTorch CUDA on the same cases and shapes, on a machine with an NVIDIA GPU
# and its Vulkan driver. Tensors of >= 256 MiB so caches do not flatter the figures.
#
# Builds build-gpu/ here unless NORMLAB_BENCH names a prebuilt normlab-bench: a GPU machine
# with no compiler and no packages runs the binaries that scripts/gpu-pack.sh gathered
# (NORMLAB_BENCH=.gpu/bin/normlab-bench, with the Vulkan loader from .gpu/lib on
# LD_LIBRARY_PATH). PyTorch CUDA comes from PYTHON (default python3); without it the
# normlab figures are still written.
# Writes docs/bench/gpu.json, gpu-torch.json and gpu.md (or OUT_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
py="${PYTHON:-python3}"
out="${OUT_DIR:-$root/docs/bench}"
mkdir -p "$out"
bench="${NORMLAB_BENCH:-}"
if [ -z "$bench" ]; then
  NORMLAB_BUILD_DIR="$root/build-gpu" "$root/scripts/build.sh" -DNORMLAB_BUILD_APP=OFF -DNORMLAB_BUILD_TESTS=OFF \
    >/dev/null
  bench="$root/build-gpu/bin/normlab-bench"
fi
# 64×64×128×128 and 16×64×256×256 floats = 256 MiB; 32×64×256×256 = 512 MiB.
"$bench" --shape 64,64,128,128 --shape 16,64,256,256 --shape 32,64,256,256 \
  --json "$out/gpu.json" "$@"
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  "$py" "$root/bench/torch_bench.py" --cases "$out/gpu.json" --out "$out/gpu-torch.json" --device cuda
  "$py" "$root/bench/report.py" "$out/gpu.json" "$out/gpu-torch.json" | tee "$out/gpu.md"
else
  echo "no CUDA PyTorch in $py: normlab figures only ($out/gpu.json)" >&2
fi
