#!/usr/bin/env bash
# The installed normlab, as a school's machine gets it (label install; run under xvfb-run):
#   1. `cmake --install BUILD --prefix P`: binaries, share/normlab, desktop entry, icons,
#      metainfo, MIME types, man pages (their options and version); normlab-cli on a preset,
#      the app's screenshot in Chinese presenter mode and `normlab FILE` (a scene, a .npy), run
#      from another folder; a tree without share/normlab and a wrong NORMLAB_ASSETS give one
#      `error:` line, exit 2;
#   2. scripts/package.sh --no-build + `dpkg -x` into a temporary root: the control file
#      declares libvulkan1, a Vulkan driver and the project's version; the same runs from there.
# Reuses the built BUILD folder (nothing is rebuilt).
#   install_test.sh SOURCE_DIR BUILD_DIR WORK_DIR VERSION
set -euo pipefail
src="$1" build="$2" work="$3" version="$4"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
app_test="$src/tests/app/app_test.py"

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

rm -rf "$work"
mkdir -p "$work/elsewhere"
prefix="$work/prefix"

# The files a desktop and `man` look for, under ROOT (a prefix).
check_tree() {
  local root="$1"
  for f in bin/normlab bin/normlab-cli bin/normlab-bench share/normlab/fonts/LICENSE-DejaVu.txt \
    share/applications/normlab.desktop share/metainfo/normlab.metainfo.xml share/mime/packages/normlab.xml \
    share/icons/hicolor/48x48/apps/normlab.png share/icons/hicolor/128x128/apps/normlab.png \
    share/icons/hicolor/256x256/apps/normlab.png share/icons/hicolor/scalable/apps/normlab.svg \
    share/man/man1/normlab.1 share/man/man1/normlab-cli.1; do
    [ -s "$root/$f" ] || fail "$root/$f is missing"
  done
  for kind in lessons presets experiments; do
    n_src=$(ls "$src/assets/$kind"/*.json | wc -l)
    n_dst=$(ls "$root/share/normlab/$kind"/*.json | wc -l)
    [ "$n_src" = "$n_dst" ] || fail "share/normlab/$kind holds $n_dst files, assets/$kind $n_src"
  done
  n_src=$(ls "$src/assets/images"/*.png | wc -l)
  n_dst=$(ls "$root/share/normlab/images"/*.png | wc -l)
  [ "$n_src" = "$n_dst" ] || fail "share/normlab/images holds $n_dst images, assets/images $n_src"
  "$py" - "$root/share/icons/hicolor" <<'PY' || exit 1
import struct, sys
for px in (48, 128, 256):
    head = open(f"{sys.argv[1]}/{px}x{px}/apps/normlab.png", "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (px, px), f"{px}: {head!r}"
PY
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$root/share/applications/normlab.desktop" | grep -v '^[^:]*: hint:' && \
      fail "desktop-file-validate reported the entry above"
  else
    echo "(desktop-file-validate not installed: desktop entry not validated)"
  fi
  if command -v appstreamcli >/dev/null; then
    # The id is the desktop file's name, not a reverse-DNS name (there is no project domain).
    appstreamcli validate --no-net --override=cid-desktopapp-is-not-rdns=info \
      "$root/share/metainfo/normlab.metainfo.xml" || fail "appstreamcli rejected the metainfo"
  else
    echo "(appstreamcli not installed: metainfo not validated)"
  fi
  grep -q '^MimeType=application/x-normlab-scene;' "$root/share/applications/normlab.desktop" ||
    fail "the desktop entry does not open scene files"
  if command -v update-mime-database >/dev/null && [ -f /usr/share/mime/packages/freedesktop.org.xml ]; then
    local data="$work/data-$(basename "$root")"
    local mime="$data/mime"
    mkdir -p "$mime/packages"
    cp /usr/share/mime/packages/freedesktop.org.xml "$mime/packages/"
    cp "$root/share/mime/packages/normlab.xml" "$mime/packages/"
    XDG_DATA_DIRS="$data" update-mime-database "$mime" 2>&1 | (! grep .) || fail "update-mime-database complained"
    grep -q '^50:application/x-normlab-scene:\*\.normlab\.json$' "$mime/globs2" || fail "no *.normlab.json glob"
    grep -q '^50:application/x-npy:\*\.npy$' "$mime/globs2" || fail "no *.npy glob"
    grep -aq 'normlab_scene' "$mime/magic" || fail "no scene magic"
  fi
}

# normlab-cli and the app of the tree whose bin/ is BIN, from another folder.
run_tree() {
  local bin="$1" tag="$2"
  (
    cd "$work/elsewhere"
    NORMLAB_VALIDATION=1 "$bin/normlab-cli" --norm batch --preset seed004-bn --stats "bn-$tag.json" ||
      fail "normlab-cli failed"
    # A shipped image by its name in the assets folder (images/NAME.png), from any folder.
    NORMLAB_VALIDATION=1 "$bin/normlab-cli" --norm instance --image images/content-stripes.png \
      --style-image images/style-sunset.png --output-image "adain-$tag.png" -q || fail "normlab-cli --image failed"
    [ -s "adain-$tag.png" ] || fail "normlab-cli --output-image wrote nothing"
    "$py" - "bn-$tag.json" <<'PY' || exit 1
import json, sys
s = json.load(open(sys.argv[1]))
assert s["norm"] == "batch" and len(s["mean"]) == s["shape"][1], s
assert s["max_abs_error_vs_reference"] < 1e-5, s["max_abs_error_vs_reference"]
print("normlab-cli: mean", s["mean"], "max error", s["max_abs_error_vs_reference"])
PY
    # A lesson by id: the lessons are read from the tree's share/normlab at run time.
    "$py" "$app_test" screenshot "$bin/normlab" "$work/zh-presenter-$tag.png" --width 1920 --height 1080 \
      --presenter --lang zh --lesson-id in-vs-ln --step 3 || fail "the app's screenshot failed"
  )
}

step "cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
check_tree "$prefix"
for page in normlab normlab-cli; do
  "$py" "$src/tests/install/check_man.py" "$prefix/share/man/man1/$page.1" "$prefix/bin/$page" || fail "man $page"
  grep -q "^\.TH .* \"normlab $version\"" "$prefix/share/man/man1/$page.1" ||
    fail "man $page is not of version $version"
done
grep -q "<release version=\"$version\"" "$prefix/share/metainfo/normlab.metainfo.xml" ||
  fail "the metainfo has no release $version"
run_tree "$prefix/bin" prefix

step "normlab FILE, as a file manager opens a scene or a .npy"
cd "$work/elsewhere"
cat >gn.normlab.json <<'JSON'
{"normlab_scene": 1, "tensor": {"source": "generated", "shape": [2, 4, 3, 3], "seed": 5},
 "norm": {"method": "group", "groups": 2}, "selection": [1, 2, 1, 1]}
JSON
# No --select: the selection (and GroupNorm) can only come from the scene file.
"$py" "$app_test" highlight "$prefix/bin/normlab" "$work/scene-file.png" gn.normlab.json || fail "normlab SCENE"
"$prefix/bin/normlab-cli" --norm layer --shape 3,5,2,7 --output x357.npy -q || fail "normlab-cli --output"
"$prefix/bin/normlab" x357.npy --screenshot "$work/npy-file.png" --dump-layout >npy.log || fail "normlab X.npy"
grep -q '"shape": \[3, 5, 2, 7\]' npy.log || { cat npy.log; fail "normlab X.npy did not open the .npy"; }

step "the assets are the installed tree's, and a missing one is said in one line"
cd "$work/elsewhere"
mv "$prefix/share/normlab" "$prefix/share/normlab.away"
"$py" "$app_test" error "$prefix/bin/normlab" 2 --lesson-id in-vs-ln >"$work/missing.log" 2>&1 ||
  { cat "$work/missing.log"; fail "no share/normlab: not exit 2 with an error line"; }
grep -q "error: normlab's assets are not in $prefix/share/normlab" "$work/missing.log" ||
  { cat "$work/missing.log"; fail "the error does not name share/normlab"; }
NORMLAB_ASSETS="$work/no-such-folder" "$py" "$app_test" error "$prefix/bin/normlab" 2 >"$work/env.log" 2>&1 ||
  { cat "$work/env.log"; fail "a wrong NORMLAB_ASSETS: not exit 2 with an error line"; }
grep -q "error: NORMLAB_ASSETS=$work/no-such-folder is not a normlab assets folder" "$work/env.log" ||
  { cat "$work/env.log"; fail "the error does not name NORMLAB_ASSETS"; }
mv "$prefix/share/normlab.away" "$prefix/share/normlab"

step "scripts/package.sh --no-build"
deb="$(NORMLAB_BUILD_DIR="$build" "$src/scripts/package.sh" --no-build "$work/pkg" | tail -n 1)"
echo "$deb"
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's version is not $version"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "$depends" | tr ',' '\n' | grep -q '^ *libvulkan1\( (.*)\)\{0,1\} *$' || fail "Depends lacks libvulkan1"
echo "$depends" | grep -q 'mesa-vulkan-drivers | vulkan-icd' || fail "Depends lacks a Vulkan driver"
dpkg-deb -x "$deb" "$work/root"
check_tree "$work/root/usr"
run_tree "$work/root/usr/bin" deb
echo "PASS"
