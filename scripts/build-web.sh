#!/usr/bin/env bash
# Builds normlab for the browser into build-web/site/ (index.html, page.js, page_data.js, normlab.js,
# normlab.wasm; the in-browser tests tests.js, tests.wasm; the ImGui shell app.html, app.js, app.wasm
# and fonts/) with Debian's emscripten, and
# installs what the build and the web tests need when it is missing: the Debian packages emscripten,
# chromium, dpkg-dev (apt-get source) and fonts-droid-fallback (the site's CJK font), Dear ImGui
# 1.86's sources (scripts/web-imgui-sources.sh: apt-get source imgui, kept in build-web/imgui/) and
# web/'s npm packages (puppeteer-core, which drives /usr/bin/chromium; it downloads no browser; and
# onnxruntime-web, the browser bench's peer, scripts/bench-web.sh).
# The desktop build (scripts/build.sh) is separate and unchanged. Extra arguments go to cmake's
# configure step. NORMLAB_WEB_BUILD_DIR overrides build-web/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${NORMLAB_WEB_BUILD_DIR:-$root/build-web}"

pkgs=(emscripten chromium dpkg-dev fonts-droid-fallback)
missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing+=("$p"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "build-web: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; }
fi
if [ ! -d "$root/web/node_modules/puppeteer-core" ] || [ ! -d "$root/web/node_modules/onnxruntime-web" ]; then
  echo "build-web: npm ci in web/ (puppeteer-core, onnxruntime-web)"
  (cd "$root/web" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# Header-only dependencies, on the include path without the rest of /usr/include.
mkdir -p "$out/include"
ln -sfn /usr/include/nlohmann "$out/include/nlohmann"
ln -sfn /usr/include/stb "$out/include/stb"

imgui_dir="$("$root/scripts/web-imgui-sources.sh" "$out/imgui")"
cjk_font=/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf

export NODE_PATH=/usr/share/nodejs  # emscripten's linker needs acorn from Debian's node modules
gen=()
if command -v ninja >/dev/null 2>&1 && [ ! -f "$out/cmake/Makefile" ]; then gen=(-G Ninja); fi
mkdir -p "$out/cmake"
# A build folder configured from another source folder (web/ alone, as before the root project
# added it) is made anew.
cache="$out/cmake/CMakeCache.txt"
if [ -f "$cache" ] && ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$root" "$cache"; then
  rm -rf "$out/cmake"
  mkdir -p "$out/cmake"
fi
if ! emcmake cmake -S "$root" -B "$out/cmake" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DNORMLAB_WEB_INCLUDE="$out/include" -DSITE_DIR="$out/site" -DIMGUI_DIR="$imgui_dir" \
  -DCJK_FONT="$cjk_font" "$@" >"$out/cmake/configure.log" 2>&1; then
  cat "$out/cmake/configure.log" >&2
  exit 1
fi
cmake --build "$out/cmake" --parallel "${NORMLAB_WEB_JOBS:-$(nproc)}"
for f in index.html page.js page_data.js page_common.js normlab.js normlab.wasm tests.js tests.wasm \
  app.html app_page.js app.js app.wasm \
  bench.html bench_page.js bench.js bench.wasm \
  fonts/DroidSansFallbackFull.ttf; do
  [ -s "$out/site/$f" ] || { echo "build-web: $out/site/$f is missing" >&2; exit 1; }
done
echo "build-web: site in $out/site"
