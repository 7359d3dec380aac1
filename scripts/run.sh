#!/usr/bin/env bash
# Installs what is missing, builds, and opens the normlab app on its built-in default tensor.
# Arguments are passed to the app (e.g. scripts/run.sh --norm group --groups 2 --preset classroom).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
if [ -x "$root/build/bin/normlab" ]; then
  exec "$root/build/bin/normlab" "$@"
fi
echo "the desktop app is not built yet; showing normlab-cli instead" >&2
exec "$root/build/bin/normlab-cli" --help
