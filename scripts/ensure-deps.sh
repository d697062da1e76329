#!/usr/bin/env bash
# Make sure this machine has what the project needs; install what is missing.
#
#   scripts/ensure-deps.sh [--with-browser] [--with-wasm] [--skip-core] [--skip-npm]
#
#   (default)       C++ toolchain + libraries for core/, and node_modules from package-lock.json
#   --with-browser  also Debian's chromium (the e2e tests drive it through Playwright)
#   --with-wasm     also Debian's emscripten (the WebAssembly build of the core)
#   --skip-core     skip the C++ toolchain (e.g. only serving the web app)
#   --skip-npm      skip node_modules (e.g. only building the native CLI)
#
# Idempotent and fast when everything is present: it only looks (command -v, dpkg-query -s,
# a stamp of the lockfile) and installs nothing. Debian packages are installed with
# apt-get (sudo only when not root); without either it prints what to install and fails.
# All output goes to stderr so callers like `npm run --silent sim` keep stdout clean.
set -euo pipefail

exec 1>&2
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

with_core=1 with_npm=1 with_browser=0 with_wasm=0
for arg in "$@"; do
  case "$arg" in
    --with-browser) with_browser=1 ;;
    --with-wasm) with_wasm=1 ;;
    --skip-core) with_core=0 ;;
    --skip-npm) with_npm=0 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "ensure-deps: unknown argument '$arg' (try --help)"; exit 2 ;;
  esac
done

say() { echo "ensure-deps: $*"; }
die() { echo "ensure-deps: error: $*"; exit 1; }

# --- Debian packages -------------------------------------------------------------------

# A package counts as present only when dpkg says it is fully installed
# (a removed package can still be "known" to dpkg with only its config files left).
pkg_installed() {
  dpkg-query -s "$1" 2>/dev/null | grep -q '^Status: install ok installed$'
}

# Packages still to install; filled by need_cmd / need_pkg, installed at the end in one go.
missing=()

# need_cmd COMMAND PACKAGE: a tool is present if it is on PATH, whoever installed it.
need_cmd() {
  command -v "$1" >/dev/null 2>&1 || missing+=("$2")
}

# need_pkg PACKAGE: header-only / library packages have no command to look for.
need_pkg() {
  if command -v dpkg-query >/dev/null 2>&1; then
    pkg_installed "$1" || missing+=("$1")
  fi
  # Not Debian: we cannot check headers; CMake will say clearly what it cannot find.
}

apt_updated=0
apt_install() {
  local runner=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      runner=(sudo)
    else
      die "missing packages: $*
  Not root and no sudo here. Install them as root, then run this again:
    apt-get update && apt-get install -y --no-install-recommends $*"
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || die "missing packages: $* (no apt-get: install the equivalents with your package manager)"
  # One `apt-get update` per run: a fresh machine has no package lists, and they are slow to fetch.
  if [ "$apt_updated" -eq 0 ]; then
    say "apt-get update"
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
  say "apt-get install $*"
  "${runner[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@"
}

ensure_core_toolchain() {
  need_cmd cmake cmake
  need_cmd ninja ninja-build
  need_cmd g++ g++
  need_pkg libgtest-dev
  need_pkg libgmock-dev
  need_pkg nlohmann-json3-dev
  need_pkg libcli11-dev
}

# The e2e tests launch the system Chromium; Playwright's own browser download is not used.
ensure_browser() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    [ -x "$CHROMIUM_PATH" ] || die "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable"
    return 0
  fi
  [ -x /usr/bin/chromium ] || missing+=(chromium)
}

# Emscripten from Debian, for the WebAssembly build (wasm/). Its JS optimizer needs
# acorn, which Debian puts under /usr/share/nodejs: run emcc with NODE_PATH set to it.
ensure_emscripten() {
  need_cmd emcc emscripten
}

if [ "$with_core" -eq 1 ]; then ensure_core_toolchain; fi
if [ "$with_browser" -eq 1 ]; then ensure_browser; fi
if [ "$with_wasm" -eq 1 ]; then ensure_emscripten; fi

if [ "${#missing[@]}" -gt 0 ]; then
  apt_install "${missing[@]}"
fi

if [ "$with_wasm" -eq 1 ]; then
  say "hint: run emcc with NODE_PATH=/usr/share/nodejs (its optimizer needs Debian's acorn)"
fi

# --- Node and node_modules --------------------------------------------------------------

if [ "$with_npm" -eq 1 ]; then
  command -v node >/dev/null 2>&1 || die "Node.js is required (>= 20.19); install it and npm, then run this again"
  command -v npm >/dev/null 2>&1 || die "npm is required (comes with Node.js)"
  # Vite 8 needs Node 20.19+ (or 22.12+); a clear message beats a cryptic crash later.
  node -e '
    const [maj, min] = process.versions.node.split(".").map(Number);
    if (maj < 20 || (maj === 20 && min < 19)) process.exit(1);
  ' || die "Node.js $(node --version) is too old: need >= 20.19"

  # node_modules is current when it was installed from exactly this lockfile and these
  # package.json files. The stamp records their hash after a successful `npm ci`.
  [ -f "$ROOT/package-lock.json" ] || die "package-lock.json is missing: run 'npm install' once and commit it"
  stamp="$ROOT/node_modules/.ssdp-deps-stamp"
  want="$(cd "$ROOT" && cat package-lock.json package.json web/package.json e2e/package.json \
    | sha256sum | cut -d' ' -f1)"
  have="$(cat "$stamp" 2>/dev/null || true)"
  if [ "$want" != "$have" ] || [ ! -f "$ROOT/node_modules/.package-lock.json" ]; then
    say "installing node_modules (npm ci)"
    # Browsers come from Debian, never from Playwright's download.
    (cd "$ROOT" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
  fi
fi

exit 0
