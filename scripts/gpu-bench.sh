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
# With nvidia-smi on the PATH it also samples the SM clock every 100 ms over the normlab run
# (gpu-clock.csv) and writes gpu-clock.md (bench/clock_report.py): each case's lowest and
# highest SM clock while its kernels and copies were timed back to back, marked "lowered" when
# the lowest is under 0.9 of the GPU's maximum SM clock; gpu.json gets the verdicts and gpu.md
# marks those cases "(lowered clock)", so they are rerun or left out instead of mixed in.
# NVIDIA_GPU names the nvidia-smi index of the GPU the bench runs on (default 0). Without
# nvidia-smi, or when it cannot read the GPU, the bench runs and the clock record is skipped.
# (The parsing is tested on recorded lines: tests/bench/test_clock_report.py; the script itself
# was written without a GPU machine to run it on.)
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
gpu="${NVIDIA_GPU:-0}"
clock_pid=""
stop_clock() {
  if [ -n "$clock_pid" ]; then
    kill "$clock_pid" 2>/dev/null || true  # it may have exited already (no GPU it can read)
    wait "$clock_pid" 2>/dev/null || true
    clock_pid=""
  fi
}
trap stop_clock EXIT
rm -f "$out/gpu-clock.csv" "$out/gpu-clock.md"
if command -v nvidia-smi >/dev/null 2>&1 &&
  nvidia-smi -i "$gpu" --query-gpu=clocks.sm --format=csv >/dev/null 2>&1; then
  nvidia-smi -i "$gpu" --query-gpu=timestamp,index,clocks.sm,clocks.max.sm --format=csv,noheader,nounits -lms 100 \
    >"$out/gpu-clock.csv" 2>/dev/null &
  clock_pid=$!
else
  echo "nvidia-smi cannot read GPU $gpu here: no SM clock record" >&2
fi
"$bench" --shape 64,64,128,128 --shape 16,64,256,256 --shape 32,64,256,256 --json "$out/gpu.json" "$@"
stop_clock
if [ -s "$out/gpu-clock.csv" ]; then
  "$py" "$root/bench/clock_report.py" "$out/gpu-clock.csv" "$out/gpu.json" --gpu "$gpu" --annotate \
    >"$out/gpu-clock.md"
  cat "$out/gpu-clock.md"
fi
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  "$py" "$root/bench/torch_bench.py" --cases "$out/gpu.json" --out "$out/gpu-torch.json" --device cuda
  "$py" "$root/bench/report.py" "$out/gpu.json" "$out/gpu-torch.json" | tee "$out/gpu.md"
else
  echo "no CUDA PyTorch in $py: normlab figures only ($out/gpu.json, gpu.md)" >&2
  "$py" "$root/bench/report.py" "$out/gpu.json" | tee "$out/gpu.md"
fi
