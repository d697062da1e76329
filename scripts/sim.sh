#!/usr/bin/env bash
# `npm run sim -- ARGS`: run the native simulator (ssdplay), building it first if needed.
# Only the CLI writes to stdout, so `npm run --silent sim -- run X --format json | jq`
# works; build progress goes to stderr. Relative paths resolve from the current
# directory (npm runs scripts from the repository root).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib/core-build.sh
source "$ROOT/scripts/lib/core-build.sh"

ensure_core_binary "$ROOT" ssdplay
exec "$ROOT/build/release/ssdplay" "$@"
