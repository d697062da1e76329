#!/usr/bin/env bash
# Builds the device model to WebAssembly (ssdp.mjs + ssdp.wasm) and copies it to
# web/public/wasm/, where the web worker loads it. Rebuilds only when core/ or
# wasm/ changed since the last build. Output of the compiler goes to
# build/wasm-build.log; the last lines are shown if it fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

out_dir="web/public/wasm"
build_dir="build/wasm"
log="build/wasm-build.log"
mkdir -p build "$out_dir"

if [ -f "$out_dir/ssdp.wasm" ] && [ -f "$out_dir/ssdp.mjs" ] &&
   [ -z "$(find core/src wasm -newer "$out_dir/ssdp.wasm" -type f -print -quit)" ]; then
  exit 0
fi

# Debian's emcc runs its JS optimizer under node and needs acorn from the
# system node path.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Only the nlohmann headers, not the host's whole /usr/include.
mkdir -p "$build_dir/include"
ln -sfn /usr/include/nlohmann "$build_dir/include/nlohmann"

echo "wasm: building the model with Emscripten (log: $log) ..." >&2
start=$(date +%s)
if ! { emcmake cmake -S wasm -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DNLOHMANN_DIR="$ROOT/$build_dir/include" &&
       cmake --build "$build_dir"; } > "$log" 2>&1; then
  echo "wasm: build failed; last lines of $log:" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
cp "$build_dir/ssdp.mjs" "$build_dir/ssdp.wasm" "$out_dir/"
echo "wasm: built in $(( $(date +%s) - start ))s -> $out_dir/ssdp.{mjs,wasm}" >&2
