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
# (gpu-clock.csv) and writes gpu-clock.md: each case's lowest and highest SM clock while it ran,
# marked "lowered" when the lowest is under 0.9 of the GPU's maximum SM clock, so those cases
# are rerun or left out instead of mixed in. (Written without a GPU machine to run it on.)
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
clock_pid=""
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.max.sm --format=csv,noheader,nounits -lms 100 \
    >"$out/gpu-clock.csv" &
  clock_pid=$!
fi
# Every line the bench prints is stamped with the time it appeared (a case's line comes when it ends).
"$bench" --shape 64,64,128,128 --shape 16,64,256,256 --shape 32,64,256,256 \
  --json "$out/gpu.json" "$@" | while IFS= read -r line; do
  printf '%s %s\n' "$(date +%s.%N)" "$line"
done >"$out/gpu-bench.log"
cut -d' ' -f2- "$out/gpu-bench.log"
if [ -n "$clock_pid" ]; then
  kill "$clock_pid"
  "$py" - "$out/gpu-clock.csv" "$out/gpu-bench.log" >"$out/gpu-clock.md" <<'PY'
import datetime, sys
samples = []  # (unix seconds, SM MHz, max SM MHz)
for row in open(sys.argv[1]):
    f = [x.strip() for x in row.split(",")]
    try:
        t = datetime.datetime.strptime(f[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        samples.append((t, float(f[1]), float(f[2])))
    except (ValueError, IndexError):
        continue
print("| case | shape | SM MHz min | SM MHz max | clock |\n|---|---|---:|---:|---|")
start = None
for row in open(sys.argv[2]):
    t, _, text = row.partition(" ")
    words = text.split()
    if start is None or len(words) < 7 or not words[5].isdigit():
        start = float(t)  # the header lines: the first case starts after them
        continue
    clocks = [(c, m) for (s, c, m) in samples if start <= s <= float(t)]
    start = float(t)
    if not clocks:
        continue
    lo, hi, top = min(c for c, _ in clocks), max(c for c, _ in clocks), max(m for _, m in clocks)
    mark = "lowered" if lo < 0.9 * top else "full"
    print(f"| {words[0]} | {' '.join(words[1:5])} | {lo:.0f} | {hi:.0f} | {mark} |")
PY
  cat "$out/gpu-clock.md"
fi
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  "$py" "$root/bench/torch_bench.py" --cases "$out/gpu.json" --out "$out/gpu-torch.json" --device cuda
  "$py" "$root/bench/report.py" "$out/gpu.json" "$out/gpu-torch.json" | tee "$out/gpu.md"
else
  echo "no CUDA PyTorch in $py: normlab figures only ($out/gpu.json)" >&2
fi
