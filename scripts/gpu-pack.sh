#!/usr/bin/env bash
# Gathers what a GPU machine without compilers or packages needs to run normlab-bench,
# normlab-cli and the GPU and training tests: Release binaries (stripped), Debian's Vulkan loader and
# the validation layer (with a manifest that points next to it), into .gpu/ (ignored by
# git). On that machine:
#   export LD_LIBRARY_PATH=$PWD/.gpu/lib VK_LAYER_PATH=$PWD/.gpu/layer
#   NORMLAB_BENCH=.gpu/bin/normlab-bench scripts/gpu-bench.sh
# The binaries need only the loader and the C/C++ runtime (fmt and stb are compiled in).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.gpu"
bins=(normlab-bench normlab-cli normlab-gpu-tests normlab-train-tests)
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$root/build-gpu/Makefile" ]; then gen=(-G Ninja); fi
cmake -S "$root" -B "$root/build-gpu" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DNORMLAB_BUILD_APP=OFF >/dev/null
cmake --build "$root/build-gpu" --parallel "$(nproc)" --target "${bins[@]}" >/dev/null
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/layer"
for b in "${bins[@]}"; do
  [ -x "$root/build-gpu/bin/$b" ] && strip -o "$dest/bin/$b" "$root/build-gpu/bin/$b"
done
cp -L /usr/lib/x86_64-linux-gnu/libvulkan.so.1 "$dest/lib/"
layer=/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so
if [ -f "$layer" ]; then
  strip -o "$dest/layer/libVkLayer_khronos_validation.so" "$layer"
  sed 's#"library_path": *"[^"]*"#"library_path": "./libVkLayer_khronos_validation.so"#' \
    /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json >"$dest/layer/VkLayer_khronos_validation.json"
fi
du -sh "$dest"
