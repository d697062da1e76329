#!/usr/bin/env bash
# `npm test`: the whole test suite, as CI runs it (.ci/run calls this).
#
#   1 dependencies     scripts/ensure-deps.sh --with-browser --with-wasm
#   2 core configure   cmake --preset release            (in core/)
#   3 core build       cmake --build --preset release    (in core/)
#   4 core tests       ctest --preset release            (in core/)
#   5 core debug       the same suite with ASan/UBSan and the model's debug self-checks
#   6 wasm build       scripts/build-wasm.sh (the model in WebAssembly, for the app and its tests)
#   7 typecheck        tsc over web/ and e2e/
#   8 unit tests       vitest run (web/src/**/*.test.ts[x], scenarios/**/*.test.ts)
#   9 e2e tests        playwright test (builds dist/, serves it, drives system Chromium)
#
# Stops at the first failing stage with its name and exit code. The last line is a
# summary of the tests counted from each runner's report ("N passed, N failed").
# `npm test -- --skip-core` skips stages 2-5 (handy for web-only work; CI never skips).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

skip_core=0
for arg in "$@"; do
  case "$arg" in
    --skip-core) skip_core=1 ;;
    *) echo "test: unknown argument '$arg' (only --skip-core)" >&2; exit 2 ;;
  esac
done

REPORTS="$ROOT/build/test-reports"
rm -rf "$REPORTS" "$ROOT/e2e/artifacts/results.json"
mkdir -p "$REPORTS"

total=9
if [ "$skip_core" -eq 1 ]; then total=5; fi
n=0
t_start=$SECONDS

# stage NAME CMD...: run one stage. The command runs in a subshell outside any
# conditional, so `set -e` still applies inside it; its exit code decides.
stage() {
  local name="$1" t0=$SECONDS rc
  shift
  n=$((n + 1))
  printf '\n==> [%d/%d] %s\n' "$n" "$total" "$name"
  set +e
  (set -e; "$@")
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    printf '\n<== [%d/%d] %s FAILED (exit %d) after %ds\n' "$n" "$total" "$name" "$rc" "$((SECONDS - t0))"
    node scripts/test-summary.mjs --partial "$REPORTS" "$ROOT/e2e/artifacts/results.json" || true
    echo "test: FAILED at stage '$name' (exit $rc); later stages did not run"
    exit "$rc"
  fi
  printf '<== [%d/%d] %s ok (%ds)\n' "$n" "$total" "$name" "$((SECONDS - t0))"
}

core_configure() { cd core && cmake --preset release; }
core_build() { cd core && cmake --build --preset release; }
# --no-tests=error: a suite that finds no tests is a failure, not a pass.
core_tests() { cd core && ctest --preset release --no-tests=error --output-junit "$REPORTS/ctest.xml"; }
# The same suite built with AddressSanitizer, UBSan and the model's debug
# self-checks (invariants verified while running).
core_debug_tests() {
  cd core && cmake --preset debug > /dev/null && cmake --build --preset debug &&
    ctest --preset debug --no-tests=error --output-junit "$REPORTS/ctest-debug.xml"
}
unit_tests() {
  npx --no-install vitest run --reporter=default --reporter=json \
    --outputFile.json="$REPORTS/vitest.json"
}

stage "dependencies" bash scripts/ensure-deps.sh --with-browser --with-wasm
if [ "$skip_core" -eq 0 ]; then
  stage "core configure" core_configure
  stage "core build" core_build
  stage "core tests (ctest)" core_tests
  stage "core tests, debug + sanitizers" core_debug_tests
fi
stage "wasm build" bash scripts/build-wasm.sh
stage "typecheck (tsc)" npm run --silent typecheck
stage "unit tests (vitest)" unit_tests
stage "e2e tests (playwright)" npm run --silent test:e2e

printf '\n==> all %d stages passed in %ds\n' "$total" "$((SECONDS - t_start))"
node scripts/test-summary.mjs "$REPORTS" "$ROOT/e2e/artifacts/results.json"
