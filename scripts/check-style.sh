#!/usr/bin/env bash
# Style check (a ctest, label style): every C++ file is as clang-format (.clang-format) would
# write it, no line of C++, GLSL, CMake, Python or shell is longer than 120 characters, and the
# sizes of scripts/check-sizes.py hold in every folder: no source file over 500 lines, no C++ or
# JavaScript function over 80 lines outside its data tables.
# scripts/check-style.sh --fix rewrites the C++ files in place.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mapfile -t cpp < <(git ls-files '*.cpp' '*.hpp')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${cpp[@]}"
  exit 0
fi
status=0
if ! clang-format --dry-run --Werror "${cpp[@]}" 2>/tmp/normlab-style.$$; then
  grep -m 20 "error:" /tmp/normlab-style.$$ >&2 || true
  echo "check-style: clang-format would change the files above (scripts/check-style.sh --fix)" >&2
  status=1
fi
rm -f /tmp/normlab-style.$$
mapfile -t other < <(git ls-files '*.comp' '*.glsl' '*.vert' '*.frag' '*.py' '*.sh' 'CMakeLists.txt' \
  '*/CMakeLists.txt' '*.cmake' .ci/run)
long=$(python3 -c '
import sys
for name in sys.argv[1:]:
    for i, line in enumerate(open(name, encoding="utf-8"), 1):
        if len(line.rstrip("\n")) > 120: print(f"{name}:{i}: {len(line.rstrip())} characters")
' "${cpp[@]}" "${other[@]}")
if [ -n "$long" ]; then
  echo "$long" | head -20 >&2
  echo "check-style: lines over 120 characters" >&2
  status=1
fi
mapfile -t sized < <(git ls-files '*.cpp' '*.hpp' '*.comp' '*.glsl' '*.vert' '*.frag' '*.wgsl' '*.js' '*.mjs' \
  '*.py' '*.sh' 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake')
if ! python3 scripts/check-sizes.py --self-test || ! python3 scripts/check-sizes.py "${sized[@]}" >&2; then
  echo "check-style: a file or a function over its size (scripts/check-sizes.py)" >&2
  status=1
fi
[ $status -eq 0 ] && echo "check-style: ${#cpp[@]} C++ files formatted, no line over 120 characters," \
  "${#sized[@]} files within their sizes"
exit $status
