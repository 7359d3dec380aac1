#!/usr/bin/env bash
# Installs the Debian 12 packages normlab needs to build, run and test.
# Idempotent: only missing packages are installed; uses sudo when not root.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config ninja-build
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  libshaderc-dev glslc
  libimgui-dev libstb-dev libglfw3-dev libglm-dev
  catch2 libcli11-dev nlohmann-json3-dev libfmt-dev
  fonts-dejavu-core fonts-droid-fallback
  xvfb xauth xdotool imagemagick
  clang libclang-rt-14-dev clang-format
  dpkg-dev desktop-file-utils appstream
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
