// The analysis panel: slow requests explained from the records, the flash
// schedule of a clicked request, the GC breakdown, requests held up by GC
// against the valid pages it copied, and the instrumentation cache with its
// vendor commands.
import { expect, test } from '@playwright/test';
import { artifacts, openLibraryScenario, runToEnd, waitForModel, watchErrors } from './helpers';

const SCENARIO = 'scenarios/obs/log-1-ckpt-1.json';
const STAGES = /fetch|translate|buffer wait|flash|transfer|completion/;

test('analysis explains the slowest request and drives the instrumentation cache', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('./');
  await waitForModel(page);
  await openLibraryScenario(page, SCENARIO);
  const m = await runToEnd(page, 75_000);
  const gcRuns = (m as unknown as { gc: { runs: number } }).gc.runs;

  await page.getByTestId('analysis-toggle').click();
  const rows = page.locator('[data-testid="slow-requests"] tbody tr[data-request-id]');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  expect(await rows.count()).toBe(20);

  await rows.first().click();
  const expl = page.getByTestId('explanation');
  await expect(expl).toHaveAttribute('data-blamed', /\S/);
  await expect(expl).toContainText(/Blamed: (fetch|translate|buffer wait|flash|transfer|completion)/);
  await expect(expl.locator('.obs__blamed')).toContainText(STAGES);

  // Its flash schedule: the slowest request is a write that waited for a
  // buffer slot; the lanes are dies whose flushes ended meanwhile, and the
  // flush that freed its last slot is marked.
  const picked = await rows.first().getAttribute('data-request-id');
  const schedule = page.getByTestId('schedule');
  await expect(schedule).toHaveAttribute('data-request-id', picked!);
  expect(Number(await schedule.getAttribute('data-lanes'))).toBeGreaterThan(0);
  expect(await schedule.locator('.obs__lane').count()).toBe(Number(await schedule.getAttribute('data-lanes')));
  await expect(schedule.locator('rect.obs__seg[data-role="freed"]')).toHaveCount(1);
  expect(await schedule.locator('rect.obs__seg[data-purpose="flush"]').count()).toBeGreaterThan(1);
  await expect(schedule).toContainText(/waited [\d.]+ (µs|ms) for a buffer slot/);

  // GC: every run the device started is in the breakdown, drawn over time.
  const gc = page.getByTestId('gc-view');
  await expect(gc).toBeVisible();
  expect(gcRuns).toBeGreaterThan(0);
  await expect(gc).toHaveAttribute('data-started', String(gcRuns));
  await expect(page.getByTestId('gc-counts')).toContainText(/runs started/);
  expect(await gc.locator('.obs__gc-time rect:not(.obs__hit)').count()).toBeGreaterThan(0);

  // Requests held up by GC: one dot per request, over a valid-page histogram.
  const copies = page.getByTestId('valid-copies');
  await expect(copies).toBeVisible();
  const points = Number(await copies.getAttribute('data-points'));
  expect(points).toBeGreaterThan(0);
  expect(points).toBeLessThanOrEqual(Number(await copies.getAttribute('data-delayed')));
  await expect(copies.locator('circle.obs__vc-dot')).toHaveCount(points);
  expect(await copies.locator('rect.obs__vc-bar').count()).toBeGreaterThan(0);

  // The CDF per workload: one curve per flow; kept curves of this run are not drawn twice.
  const cdf = page.getByTestId('workload-cdf');
  await expect(cdf).toHaveAttribute('data-curves', '2');
  await expect(cdf.locator('path[stroke-dasharray]')).toHaveCount(0);
  await page.getByTestId('cdf-keep').click();
  await expect(cdf).toHaveAttribute('data-curves', '2');
  await expect(page.getByTestId('cdf-clear')).toBeEnabled();
  await page.getByTestId('cdf-clear').click();

  const instr = page.getByTestId('instr-status');
  await expect(instr).toContainText(/This cache holds [\d.,]+ (s|ms) of history/);
  await expect(page.getByTestId('instr-transfers')).toHaveText('0');
  await page.getByTestId('instr-transfer').click();
  await expect(page.getByTestId('instr-transfers')).toHaveText('1');
  await expect(page.getByTestId('instr-download')).toBeEnabled();

  const download = page.waitForEvent('download');
  await page.getByTestId('instr-download').click();
  expect((await download).suggestedFilename()).toMatch(/\.ssdrec$/);

  await page.getByTestId('analysis').scrollIntoViewIfNeeded();
  await page.getByTestId('analysis').screenshot({ path: `${artifacts}screenshots/obs-analysis.png` });
  expect(errors).toEqual([]);
});

test('the flash schedule of a slow read outlines its own read; no GC, no GC views', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('./');
  await waitForModel(page);
  await openLibraryScenario(page, 'scenarios/basics/default.json');
  await runToEnd(page, 40_000);

  await page.getByTestId('analysis-toggle').click();
  const reads = page
    .locator('[data-testid="slow-requests"] tbody tr[data-request-id]')
    .filter({ has: page.locator('td:nth-child(3)', { hasText: /^read$/ }) });
  await expect(reads.first()).toBeVisible({ timeout: 20_000 });
  const id = await reads.first().getAttribute('data-request-id');
  await reads.first().click();
  const schedule = page.getByTestId('schedule');
  await expect(schedule).toHaveAttribute('data-request-id', id!);
  await expect(schedule).toContainText(/waited [\d.]+ (µs|ms) for its data from flash/);
  expect(await schedule.locator('rect.obs__seg[data-role="own"]').count()).toBeGreaterThan(0);
  // What held its die: other ops in the same lane before its read.
  expect(await schedule.locator('rect.obs__seg[data-role="other"]').count()).toBeGreaterThan(0);

  await expect(page.getByTestId('gc-empty')).toContainText('No garbage collection');
  await expect(page.getByTestId('valid-copies-empty')).toBeVisible();
  expect(errors).toEqual([]);
});
