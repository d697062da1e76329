#!/usr/bin/env bash
# End-to-end checks of the ssdplay binary: output shape, determinism, --set,
# and the exit codes and messages a script relies on.
set -euo pipefail
ssdplay="$1"
scenarios="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. --format json carries every documented field, and nothing else is on stdout.
"$ssdplay" run "$scenarios/basics/default.json" --format json > "$tmp/a.json"
node -e '
  const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const need = ["sim.end_ns", "sim.events", "sim.wall_s", "host.requests", "host.iops", "host.mbps",
    "flash.reads", "flash.programs", "flash.erases", "ftl.waf", "gc.runs", "gc.page_copies"];
  for (const dir of ["read", "write"])
    for (const k of ["mean", "p50", "p99", "p999", "max"]) need.push(`host.${dir}.lat_us.${k}`);
  for (const path of need) {
    const v = path.split(".").reduce((o, k) => (o === undefined ? o : o[k]), m);
    if (typeof v !== "number") { console.error("missing or not a number: " + path); process.exit(1); }
  }
  if (m.host.requests <= 0) { console.error("no requests completed"); process.exit(1); }
' "$tmp/a.json" || fail "json output"

# 2. Same scenario and seed: identical metrics apart from wall time.
"$ssdplay" run "$scenarios/basics/default.json" --format json > "$tmp/b.json"
strip() { node -e 'const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); delete m.sim.wall_s; console.log(JSON.stringify(m));' "$1"; }
[ "$(strip "$tmp/a.json")" = "$(strip "$tmp/b.json")" ] || fail "repeated runs differ"

# 3. --seed and --set change the run.
"$ssdplay" run "$scenarios/basics/default.json" --format json --seed 12345 > "$tmp/c.json"
[ "$(strip "$tmp/a.json")" != "$(strip "$tmp/c.json")" ] || fail "--seed had no effect"
"$ssdplay" run "$scenarios/basics/default.json" --format csv --set 'workload.flows[0].read_fraction=1' > "$tmp/d.csv"
grep -q '^host.writes,0$' "$tmp/d.csv" || fail "--set read_fraction=1 still wrote"

# 4. A bad value: exit code 2 and a message naming the path, the value and the range.
echo '{"device": {"geometry": {"channels": 0}}}' > "$tmp/bad.json"
set +e
"$ssdplay" run "$tmp/bad.json" > "$tmp/out.txt" 2> "$tmp/err.txt"
rc=$?
set -e
[ "$rc" = 2 ] || fail "bad scenario exit code $rc, expected 2"
grep -q 'device.geometry.channels: 0 is out of range; allowed 1..64' "$tmp/err.txt" || fail "message: $(cat "$tmp/err.txt")"
[ ! -s "$tmp/out.txt" ] || fail "stdout not empty on error"

# 5. A bad override is rejected the same way.
set +e
"$ssdplay" run "$scenarios/basics/default.json" --set 'device.flash.cell_type=PLC' 2> "$tmp/err2.txt" > /dev/null
rc=$?
set -e
[ "$rc" = 2 ] || fail "bad --set exit code $rc"
grep -q 'device.flash.cell_type' "$tmp/err2.txt" || fail "bad --set message: $(cat "$tmp/err2.txt")"

# 6. Records export: a CSV with a header and request records.
"$ssdplay" run "$scenarios/basics/default.json" --format json --records "$tmp/rec.csv" > /dev/null
head -1 "$tmp/rec.csv" | grep -q '^time_ns,kind,unit,id,a,b$' || fail "records header"
grep -q ',request_complete,' "$tmp/rec.csv" || fail "no request_complete records"

# 7. analyze: a live run and the binary records file of the same run give the same summary.
"$ssdplay" run "$scenarios/basics/default.json" --format json --records "$tmp/rec.bin" --records-format binary > /dev/null
"$ssdplay" analyze "$scenarios/basics/default.json" --format json --top 5 > "$tmp/live.json"
"$ssdplay" analyze --records "$tmp/rec.bin" --scenario "$scenarios/basics/default.json" --format json --top 5 \
    > "$tmp/file.json"
node -e '
  const fs = require("fs");
  const live = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const file = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  if (live.records.lost !== 0) { console.error("live run lost records: " + live.records.lost); process.exit(1); }
  if (file.records.lost !== null) { console.error("a file cannot know its losses"); process.exit(1); }
  delete live.records.lost; delete file.records.lost;
  if (JSON.stringify(live) !== JSON.stringify(file)) { console.error("live and file summaries differ"); process.exit(1); }
  if (!(live.requests.complete > 0) || live.requests.skipped !== 0) { console.error("requests: " + JSON.stringify(live.requests)); process.exit(1); }
  if (live.slowest.length !== 5 || !live.slowest.every(r => r.explanation.length > 0)) { console.error("slowest"); process.exit(1); }
  const all = live.groups[0];
  const share = Object.values(all.stages).reduce((s, x) => s + x.share, 0);
  if (Math.abs(share - 1) > 1e-9) { console.error("stage shares sum to " + share); process.exit(1); }
' "$tmp/live.json" "$tmp/file.json" || fail "analyze: live vs records file"
"$ssdplay" analyze "$scenarios/basics/default.json" --top 3 > "$tmp/an.txt"
grep -q '^where the time went' "$tmp/an.txt" || fail "analyze text: no stage table"
grep -q 'step to blame' "$tmp/an.txt" || fail "analyze text: no explanation"

# 8. analyze refuses a file that is not made of 32-byte records.
head -c 100 "$tmp/rec.bin" > "$tmp/short.bin"
set +e
"$ssdplay" analyze --records "$tmp/short.bin" --scenario "$scenarios/basics/default.json" > /dev/null 2> "$tmp/err3.txt"
rc=$?
set -e
[ "$rc" = 1 ] || fail "truncated records file exit code $rc"
grep -q 'not a binary records file' "$tmp/err3.txt" || fail "truncated records message: $(cat "$tmp/err3.txt")"

echo "ssdplay CLI checks passed"
