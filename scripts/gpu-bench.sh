#!/usr/bin/env bash
# normlab-bench and PyTorch CUDA on the same cases and shapes, on a machine with an NVIDIA GPU
# and its Vulkan driver. Tensors of >= 256 MiB so caches do not flatter the figures.
# Needs: the Debian build dependencies (scripts/install-deps.sh), a Vulkan loader that finds the
# NVIDIA ICD, and a CUDA build of PyTorch importable by PYTHON (default python3).
# Writes docs/bench/gpu.json, gpu-torch.json and gpu.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
py="${PYTHON:-python3}"
out="$root/docs/bench"
mkdir -p "$out"
NORMLAB_BUILD_DIR="$root/build-gpu" "$root/scripts/build.sh" -DNORMLAB_BUILD_APP=OFF -DNORMLAB_BUILD_TESTS=OFF >/dev/null
bench="$root/build-gpu/bin/normlab-bench"
# 64×64×128×128 and 16×64×256×256 floats = 256 MiB; 32×64×256×256 = 512 MiB.
"$bench" --shape 64,64,128,128 --shape 16,64,256,256 --shape 32,64,256,256 \
  --json "$out/gpu.json" "$@"
"$py" "$root/bench/torch_bench.py" --cases "$out/gpu.json" --out "$out/gpu-torch.json" --device cuda
"$py" "$root/bench/report.py" "$out/gpu.json" "$out/gpu-torch.json" | tee "$out/gpu.md"
