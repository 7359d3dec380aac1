#!/usr/bin/env bash
# Dear ImGui's sources for the browser build (scripts/build-web.sh calls it): `apt-get source imgui`
# of the version whose headers the desktop app compiles against (libimgui-dev's source version,
# 1.86+ds-1 on Debian 12), unpacked into DIR/imgui-1.86. apt gets a private deb-src list written
# from the machine's own /etc/apt/sources.list.d/*.sources and /etc/apt/sources.list, and private
# list and cache folders under DIR (Dir::Etc::SourceParts, Dir::State::Lists, Dir::Cache): /etc is
# not changed. A tree already there is kept (no download on a rebuild). Prints the tree's path;
# any failure is one line on stderr and exit 1.
set -euo pipefail
dir="$1"
tree="$dir/imgui-1.86"
fail() {
  echo "build-web: cannot get Dear ImGui 1.86's sources (apt-get source imgui): $*" >&2
  exit 1
}
version_of() { sed -n 's/^#define IMGUI_VERSION  *"\(.*\)"$/\1/p' "$1/imgui.h" 2>/dev/null; }

if [ "$(version_of "$tree")" = "1.86" ] && [ -f "$tree/backends/imgui_impl_opengl3.cpp" ]; then
  echo "$tree"
  exit 0
fi
command -v apt-get >/dev/null || fail "apt-get is not on this machine"
command -v dpkg-source >/dev/null || fail "dpkg-source is missing (install dpkg-dev)"
src_version="$(dpkg-query -W -f='${source:Version}' libimgui-dev 2>/dev/null || true)"
src_version="${src_version:-1.86+ds-1}"
case "$src_version" in 1.86+*) ;; *) fail "libimgui-dev is $src_version, not 1.86" ;; esac

apt_dir="$dir/apt"
rm -rf "$apt_dir"
mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/src"
# deb-src twins of the machine's deb entries (deb822 stanzas and one-line entries).
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  sed -E 's/^Types:.*$/Types: deb-src/' "$f" >"$apt_dir/parts/$(basename "$f")"
done
if [ -f /etc/apt/sources.list ]; then
  sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list >"$apt_dir/parts/sources.list.list"
fi
grep -qs 'deb-src' "$apt_dir"/parts/* || fail "no Debian source list in /etc/apt to make a deb-src entry from"

opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir/parts"
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o APT::Sandbox::User=root)
log="$apt_dir/apt.log"
apt-get -q "${opts[@]}" update >"$log" 2>&1 || fail "apt-get update: $(grep -E '^(E|W):' "$log" | head -1)"
(cd "$apt_dir/src" && apt-get -q "${opts[@]}" source "imgui=$src_version" >>"$log" 2>&1) ||
  fail "$(grep -E '^E:' "$log" | head -1)"
got="$(find "$apt_dir/src" -mindepth 1 -maxdepth 1 -type d -name 'imgui-*' | head -1)"
[ -n "$got" ] || fail "apt-get source left no imgui-* folder (see $log)"
[ "$(version_of "$got")" = "1.86" ] || fail "the downloaded imgui.h is version '$(version_of "$got")', not 1.86"
rm -rf "$tree"
mv "$got" "$tree"
rm -rf "$apt_dir"  # the lists and the tarballs (about 25 MB); the unpacked tree is what the build uses
echo "$tree"
