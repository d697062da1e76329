# shellcheck shell=bash
# Sourced by scripts/sim.sh and scripts/bench.sh: build one target of the C++ core with
# the CMake "release" preset when its binary is missing or older than anything in core/.
# Everything goes to stderr (stdout belongs to the binary that runs afterwards); the full
# build output goes to build/core-build.log unless SSDP_VERBOSE=1 streams it to stderr.

# _core_build ROOT TARGET: configure once (`cmake --build` re-runs configure by itself when
# CMake files change), then build just TARGET.
_core_build() {
  cd "$1/core"
  if [ ! -f "$1/build/release/build.ninja" ]; then cmake --preset release; fi
  cmake --build --preset release --target "$2"
}

# ensure_core_binary ROOT TARGET
ensure_core_binary() {
  local root="$1" target="$2"
  local bin="$root/build/release/$target"
  local log="$root/build/core-build.log"

  # Up to date: binary exists and no file or folder under core/ changed since it was made.
  # (A folder's mtime changes when files are added or removed, so deletions count too.)
  if [ -x "$bin" ] && [ -z "$(find "$root/core" -newer "$bin" -print -quit)" ]; then
    return 0
  fi

  # A fresh machine may lack the C++ toolchain; node_modules is not needed for this.
  bash "$root/scripts/ensure-deps.sh" --skip-npm

  mkdir -p "$root/build"
  echo "ssdplay: building $target (log: build/core-build.log) ..." >&2
  local t0=$SECONDS rc=0
  # The subshell runs outside any `if`/`||`, so `set -e` inside it stops at the first error.
  set +e
  if [ "${SSDP_VERBOSE:-0}" = 1 ]; then
    (set -e; _core_build "$root" "$target") >&2
  else
    (set -e; _core_build "$root" "$target") >"$log" 2>&1
  fi
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    [ "${SSDP_VERBOSE:-0}" = 1 ] || tail -n 40 "$log" >&2
    echo "ssdplay: building $target failed (exit $rc); full output in build/core-build.log" >&2
    exit "$rc"
  fi
  [ -x "$bin" ] || { echo "ssdplay: the build did not produce $bin" >&2; exit 1; }
  # Ninja may leave the binary untouched when only non-source files changed; mark it
  # current so the staleness check above does not trigger a rebuild on every run.
  touch "$bin"
  echo "ssdplay: built $target in $((SECONDS - t0))s" >&2
}
