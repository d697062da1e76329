// The X-SSD panel: offered only for fast-side and database-log scenarios, and
// drawn from the run's own records and metrics (crash protocol, replication).
import { expect, test, type Page } from '@playwright/test';
import { artifacts, openLibraryScenario, runToEnd, waitForModel, watchErrors, type Metrics } from './helpers';

const shots = `${artifacts}screenshots/`;

interface XssdMetrics {
  credit_counter: number;
  destage_pages: number;
  crash?: { host_acknowledged: number; lost_acknowledged: number; beyond_gap: number; extra_tail: number };
  secondaries: { shadow: number; counter: number; link_up: boolean; repl_delay_count: number }[];
}
interface DbLogMetrics {
  transactions: number;
  groups: number;
}
const xssd = (m: Metrics) => m.xssd as XssdMetrics;
const dbLog = (m: Metrics) => m.db_log as DbLogMetrics;
const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

/** A picture of the whole X-SSD panel, without the sticky control bar over it. */
async function shootPanel(page: Page, path: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  const box = await page.getByTestId('xssd-panel').boundingBox();
  expect(box).toBeTruthy();
  await page.screenshot({ path, fullPage: true, clip: box! });
}

test('crash: the protocol shows its five steps in order and the crash report', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('./');
  await waitForModel(page);
  await expect(page.getByTestId('xssd-section')).toHaveCount(0); // the default scenario has no fast side

  await openLibraryScenario(page, 'scenarios/xssd/crash.json');
  const m = await runToEnd(page, 75_000);
  const x = xssd(m);
  expect(x.crash, 'the run reports a crash').toBeTruthy();
  const panel = page.getByTestId('xssd-panel');
  await expect(panel).toBeVisible();

  const crash = page.getByTestId('xssd-crash');
  await expect(crash).toHaveAttribute('data-steps', '5', { timeout: 15_000 });
  const steps = crash.locator('[data-testid="crash-step"]');
  await expect(steps).toHaveCount(5);
  expect(await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')))).toEqual(['0', '1', '2', '3', '4']);
  expect(await steps.evaluateAll((els) => els.every((e) => e.getAttribute('data-reached') === 'true'))).toBe(true);
  await expect(steps.nth(0)).toContainText('power loss');
  await expect(steps.nth(2)).toContainText('stop at first gap');
  await expect(steps.nth(4)).toContainText('tail visible');

  const report = page.getByTestId('xssd-crash-report');
  await expect(report.locator('[data-key="acknowledged"]')).toHaveText(bytes(x.crash!.host_acknowledged));
  await expect(report.locator('[data-key="dropped"]')).toHaveText(bytes(x.crash!.beyond_gap));
  await expect(report.locator('[data-key="extra-tail"]')).toHaveText(bytes(x.crash!.extra_tail));
  await expect(report.locator('[data-key="lost-acknowledged"]')).toHaveText(bytes(x.crash!.lost_acknowledged));

  // The other views carry the run's numbers.
  await expect(page.getByTestId('xssd-ring')).toHaveAttribute('data-counter', String(x.credit_counter));
  expect(Number(await page.getByTestId('xssd-credit').getAttribute('data-reads'))).toBeGreaterThan(0);
  expect(Number(await page.getByTestId('xssd-destage').getAttribute('data-pages'))).toBeGreaterThan(0);
  await expect(page.getByTestId('xssd-commits')).toHaveAttribute('data-commits', String(dbLog(m).groups));
  await expect(page.getByTestId('xssd-dblog-summary').locator('[data-key="transactions"]')).toHaveText(
    dbLog(m).transactions.toLocaleString('en-US'),
  );

  // Each view exports like the dashboard's charts.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Crash protocol as SVG' }).click();
  expect((await download).suggestedFilename()).toBe('xssd-crash-protocol.svg');

  await shootPanel(page, `${shots}xssd-crash-light.png`);
  expect(errors).toEqual([]);
});

test('replication: the link, the shadow counter and the delay distribution', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.addInitScript(() => localStorage.setItem('ssdp.theme', 'dark'));
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('./');
  await waitForModel(page);
  await openLibraryScenario(page, 'scenarios/xssd/replication.json');
  const m = await runToEnd(page, 75_000);
  const s = xssd(m).secondaries[0]!;
  expect(s.shadow).toBeGreaterThan(0);

  const links = page.getByTestId('xssd-links');
  await expect(links).toHaveAttribute('data-secondaries', '1');
  await expect.poll(async () => Number(await links.getAttribute('data-shadow-samples')), { timeout: 15_000 }).toBeGreaterThan(0);
  await expect(links.locator('[data-testid="xssd-link"]')).toHaveAttribute('data-state', 'up');
  const shadow = links.locator('[data-testid="xssd-shadow"]');
  await expect(shadow).toHaveAttribute('data-shadow', String(s.shadow));
  await expect(shadow).toHaveAttribute('data-counter', String(s.counter));
  await expect(shadow).toContainText('shadow on the primary');
  await expect(page.getByTestId('xssd-delay')).toHaveAttribute('data-count', String(s.repl_delay_count));
  await expect(page.getByTestId('xssd-status')).toContainText('S0 up');
  // No power loss in this run: the crash view says how to cause one.
  await expect(page.getByTestId('xssd-crash')).toHaveAttribute('data-steps', '0');

  await shootPanel(page, `${shots}xssd-replication-dark.png`);
  expect(errors).toEqual([]);
});
