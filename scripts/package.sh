#!/usr/bin/env bash
# Makes normlab's .deb with CPack (cmake/install.cmake): the project's CMake version, Depends
# from dpkg-shlibdeps (libvulkan1, libglfw3, …) plus mesa-vulkan-drivers | vulkan-icd.
#   scripts/package.sh [--no-build] [OUTDIR]
# builds build/ (or $NORMLAB_BUILD_DIR; Release) unless --no-build, writes the .deb into OUTDIR
# (default: the build folder's packages/) and prints its path on the last line.
# Install it with `sudo apt install ./normlab_VERSION_ARCH.deb`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${NORMLAB_BUILD_DIR:-$root/build}"
no_build=0
out=""
for a in "$@"; do
  case "$a" in
    --no-build) no_build=1 ;;
    -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $a (see --help)" >&2; exit 2 ;;
    *) out="$a" ;;
  esac
done
[ "$no_build" = 1 ] || "$root/scripts/build.sh"
cache="$build/CMakeCache.txt"
if [ ! -f "$build/CPackConfig.cmake" ] || [ ! -f "$cache" ]; then
  echo "error: $build is not a configured normlab build folder (run scripts/build.sh)" >&2
  exit 2
fi
if grep -q '^NORMLAB_SANITIZE:BOOL=ON' "$cache" || ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release' "$cache"; then
  echo "error: $build is not a plain Release build (a package holds Release binaries)" >&2
  exit 2
fi
out="$(mkdir -p "${out:-$build/packages}" && cd "${out:-$build/packages}" && pwd)"
log="$out/cpack.log"
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out" >"$log" 2>&1; then
  cat "$log" >&2
  echo "error: cpack failed (log above)" >&2
  exit 1
fi
deb="$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' "$log" | tail -n 1)"
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
  cat "$log" >&2
  echo "error: cpack made no .deb" >&2
  exit 1
fi
echo "$deb"
