// WebAssembly and native builds agree: every starter scenario, run to the end
// in the page, gives the same metrics as `ssdplay run --format json`; the
// page's metrics export is the CLI's CSV byte for byte.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openLibraryScenario, repoRoot, runToEnd, waitForModel, watchErrors, withoutWallTime, type Metrics } from './helpers';

const cli = `${repoRoot}build/release/ssdplay`;
const SCENARIOS = [
  'scenarios/basics/default.json',
  'scenarios/basics/gc-under-pressure.json',
  'scenarios/basics/mixed-flows.json',
  'scenarios/basics/random-read-qd1.json',
  'scenarios/basics/sequential-write.json',
  'scenarios/basics/trace-replay.json',
  'scenarios/obs/log-1-only.json',
];

function native(relPath: string, format: 'json' | 'csv'): string {
  return execFileSync(cli, ['run', `${repoRoot}${relPath}`, '--format', format], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

test.beforeAll(() => {
  // scripts/sim.sh builds ssdplay, and rebuilds it when core/ changed, so the
  // native binary and the site's wasm come from the same sources.
  test.setTimeout(300_000);
  execFileSync('bash', [`${repoRoot}scripts/sim.sh`, '--help'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
});

test('wasm and native give identical metrics for every starter scenario', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await page.goto('./');
  await waitForModel(page);
  for (const path of SCENARIOS) {
    await test.step(path, async () => {
      await openLibraryScenario(page, path);
      const inPage = await runToEnd(page);
      const expected = JSON.parse(native(path, 'json')) as Metrics;
      expect(withoutWallTime(inPage), path).toEqual(withoutWallTime(expected));
    });
  }
  expect(errors).toEqual([]);
});

test('metrics export matches the CLI byte for byte; records export as binary and CSV', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./');
  await runToEnd(page);

  const dropWall = (csv: string) =>
    csv
      .split('\n')
      .filter((l) => !l.startsWith('sim.wall_s,'))
      .join('\n');

  await page.getByTestId('export').click();
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-metrics-csv').click()]);
  expect(csvDownload.suggestedFilename()).toBe('default-metrics.csv');
  const csv = readFileSync(await csvDownload.path(), 'utf8');
  expect(dropWall(csv)).toBe(dropWall(native('scenarios/basics/default.json', 'csv')));

  await page.getByTestId('export').click();
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-metrics-json').click()]);
  const json = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8')) as Metrics;
  expect(withoutWallTime(json)).toEqual(withoutWallTime(JSON.parse(native('scenarios/basics/default.json', 'json')) as Metrics));

  await page.getByTestId('export').click();
  const [bin] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-records-bin').click()]);
  expect(bin.suggestedFilename()).toBe('default.ssdrec');
  const bytes = readFileSync(await bin.path());
  expect(bytes.length % 32).toBe(0);
  // Every record the model wrote reached the file (none were lost in the ring).
  expect(bytes.length / 32).toBe((json.records as { written: number }).written);

  await page.getByTestId('export').click();
  const [recCsv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-records-csv').click()]);
  const lines = readFileSync(await recCsv.path(), 'utf8').trim().split('\n');
  expect(lines[0]).toBe('time_ns,kind,unit,id,a,b');
  expect(lines.length - 1).toBe(bytes.length / 32);
  expect(lines.some((l) => l.includes(',perf_index,'))).toBe(true);
  expect(errors).toEqual([]);
});
