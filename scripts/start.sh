#!/usr/bin/env bash
# `npm start`: install what is missing, then serve the web app.
#
#   npm start                 Vite dev server (hot reload) on http://127.0.0.1:5173/
#   npm start -- --preview    build the static site into dist/ and serve that instead
#
# HOST and PORT override the address (default 127.0.0.1:5173).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

mode=dev
for arg in "$@"; do
  case "$arg" in
    --preview) mode=preview ;;
    --dev) mode=dev ;;
    *) echo "start: unknown argument '$arg' (use --preview or --dev)" >&2; exit 2 ;;
  esac
done

host="${HOST:-127.0.0.1}"
port="${PORT:-5173}"

# The page needs node_modules and the model compiled to WebAssembly (the native
# C++ toolchain is only for sim/bench/test).
bash scripts/ensure-deps.sh --skip-core --with-wasm
bash scripts/build-wasm.sh

if [ "$mode" = preview ]; then
  echo "start: building the static site into dist/ ..."
  npm run --silent build
fi

echo
echo "  SSD Playground: http://$host:$port/   (Ctrl-C to stop)"
echo
# strictPort: fail clearly if the port is taken instead of silently moving elsewhere.
exec npm run --silent "$mode" --workspace web -- --host "$host" --port "$port" --strictPort
