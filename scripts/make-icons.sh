#!/usr/bin/env bash
# Rasterizes the hand-drawn icon packaging/icons/normlab.svg into the hicolor PNGs
# packaging/icons/normlab-{48,128,256}.png (committed; run again after editing the SVG).
# Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
icons="$root/packaging/icons"
if ! command -v rsvg-convert >/dev/null; then
  echo "error: rsvg-convert not found (apt-get install librsvg2-bin)" >&2
  exit 2
fi
for px in 48 128 256; do
  rsvg-convert --width "$px" --height "$px" --format png --output "$icons/normlab-$px.png" "$icons/normlab.svg"
done
echo "make-icons: $icons/normlab-{48,128,256}.png"
