// The analysis panel: slow requests explained from the records, and the
// instrumentation cache with its vendor commands.
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
  await runToEnd(page, 75_000);

  await page.getByTestId('analysis-toggle').click();
  const rows = page.locator('[data-testid="slow-requests"] tbody tr[data-request-id]');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  expect(await rows.count()).toBe(20);

  await rows.first().click();
  const expl = page.getByTestId('explanation');
  await expect(expl).toHaveAttribute('data-blamed', /\S/);
  await expect(expl).toContainText(/Blamed: (fetch|translate|buffer wait|flash|transfer|completion)/);
  await expect(expl.locator('.obs__blamed')).toContainText(STAGES);

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
