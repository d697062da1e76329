#!/usr/bin/env bash
# `npm run bench -- ARGS`: run the micro-benchmarks (ssdplay_bench), building them first
# if needed. Build progress goes to stderr, so `npm run --silent bench -- --json` prints
# only the benchmark's JSON.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib/core-build.sh
source "$ROOT/scripts/lib/core-build.sh"

ensure_core_binary "$ROOT" ssdplay_bench
exec "$ROOT/build/release/ssdplay_bench" "$@"
