#!/usr/bin/env bash
# Presenter-mode screenshots at 1280×720, 1600×900 and 1920×1080, in English and Chinese,
# each under its own virtual display of that size (xvfb-run):
#   scripts/presenter-shots.sh [OUTDIR] [app options...]
# writes OUTDIR/presenter-WxH-en.png and -zh.png (default OUTDIR docs/screenshots; default
# options: the first lesson step of "BatchNorm vs LayerNorm"). NORMLAB_APP=PATH picks the
# binary (default build/bin/normlab), SIZES="1280x720 ..." the sizes, LANGS="en zh" the languages.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs/screenshots}"
shift || true
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(--lesson-id bn-vs-ln --step 1 --select 0,1,0,0); fi
app="${NORMLAB_APP:-${NORMLAB_BUILD_DIR:-$root/build}/bin/normlab}"
[ -x "$app" ] || { echo "error: no app at $app (scripts/build.sh builds it)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "error: xvfb-run is missing (apt install xvfb)" >&2; exit 2; }
mkdir -p "$out"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
chmod 700 "$XDG_RUNTIME_DIR"
for size in ${SIZES:-1280x720 1600x900 1920x1080}; do
    w="${size%x*}" h="${size#*x}"
    for lang in ${LANGS:-en zh}; do
        png="$out/presenter-${size}-${lang}.png"
        xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$app" --presenter --lang "$lang" --width "$w" --height "$h" \
            "${args[@]}" --screenshot "$png" >/dev/null
        echo "$png"
    done
done
