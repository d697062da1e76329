// Sum the test counts from each runner's machine-readable report into one closing line:
//   tests: ctest 12 passed; vitest 12 passed; playwright 1 passed
//   summary: 25 passed, 0 failed, 0 skipped
// Usage: node scripts/test-summary.mjs [--partial] REPORTS_DIR PLAYWRIGHT_RESULTS_JSON
// Missing reports (stages that did not run) are simply left out. --partial (after a
// failed stage) prints only the per-runner counts gathered so far, no closing total.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const partial = args[0] === '--partial';
if (partial) args.shift();
const [reportsDir = 'build/test-reports', playwrightJson = 'e2e/artifacts/results.json'] = args;

const runners = [];

function read(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

// ctest --output-junit: one <testsuite tests=".." failures=".." skipped=".." ...> element.
for (const [file, name] of [['ctest.xml', 'ctest'], ['ctest-debug.xml', 'ctest (debug)']]) {
  const xml = read(join(reportsDir, file));
  if (xml) {
    const attr = (name) => Number(xml.match(new RegExp(`<testsuite\\b[^>]*\\s${name}="(\\d+)"`))?.[1] ?? 0);
    const tests = attr('tests');
    const failed = attr('failures') + attr('errors');
    const skipped = attr('skipped') + attr('disabled');
    runners.push({ name, passed: tests - failed - skipped, failed, skipped });
  }
}

// vitest --reporter=json (Jest-compatible totals).
{
  const text = read(join(reportsDir, 'vitest.json'));
  if (text) {
    const r = JSON.parse(text);
    runners.push({
      name: 'vitest',
      passed: r.numPassedTests ?? 0,
      failed: r.numFailedTests ?? 0,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    });
  }
}

// playwright json reporter: stats.expected / unexpected / flaky / skipped.
{
  const text = read(playwrightJson);
  if (text) {
    const s = JSON.parse(text).stats ?? {};
    runners.push({
      name: 'playwright',
      passed: (s.expected ?? 0) + (s.flaky ?? 0),
      failed: s.unexpected ?? 0,
      skipped: s.skipped ?? 0,
    });
  }
}

const sum = (key) => runners.reduce((acc, r) => acc + r[key], 0);
if (runners.length > 0) {
  const detail = runners
    .map((r) => `${r.name} ${r.passed} passed${r.failed ? `, ${r.failed} failed` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}`)
    .join('; ');
  console.log(`tests${partial ? ' so far' : ''}: ${detail}`);
}
if (!partial) console.log(`summary: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
