#!/usr/bin/env bash
# Installs what is missing, builds, and opens the normlab app on its built-in default tensor.
# Arguments are passed to the app (e.g. scripts/run.sh --norm group --groups 2 --preset classroom).
# scripts/run.sh --web [PORT]: builds the browser edition (scripts/build-web.sh), serves
# build-web/site on 127.0.0.1 (a free port unless PORT is given) with scripts/serve-site.py (the
# build's gzip copies to browsers that take them) and prints the URL.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = "--web" ]; then
  "$root/scripts/build-web.sh"
  site="${NORMLAB_WEB_BUILD_DIR:-$root/build-web}/site"
  port="${2:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
  echo "normlab in the browser: http://127.0.0.1:$port/ (the results page), http://127.0.0.1:$port/app.html" \
    "(the app's ImGui shell) (WebGPU: Chrome or Edge 113+; Ctrl-C stops the server)"
  exec python3 "$root/scripts/serve-site.py" --port "$port" --bind 127.0.0.1 "$site"
fi
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
if [ -x "$root/build/bin/normlab" ]; then
  exec "$root/build/bin/normlab" "$@"
fi
echo "the desktop app is not built yet; showing normlab-cli instead" >&2
exec "$root/build/bin/normlab-cli" --help
