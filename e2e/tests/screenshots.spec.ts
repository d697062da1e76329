// Screenshots of the real page for review (e2e/artifacts/screenshots/) and the
// user guide's picture (docs/img/playground.png, kept under 300 KB).
import { statSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { artifacts, metrics, openLibraryScenario, repoRoot, simNs, waitForModel } from './helpers';

const dir = `${artifacts}screenshots/`;
const VIEWS = [
  ['floor-plan', '.dash__floor'],
  ['metrics', '.dash__metrics'],
  ['throughput', '.dash__tput'],
  ['latency', '.dash__lat'],
  ['latency-cdf', '.dash__cdf'],
  ['block-map', '.dash__blocks'],
  ['event-timeline', '.dash__tl'],
] as const;

test.use({ viewport: { width: 1280, height: 720 } });

/** GC at work, then a power failure: every view has something to show. */
async function interestingState(page: Page): Promise<void> {
  await page.goto('./');
  await waitForModel(page);
  await openLibraryScenario(page, 'scenarios/basics/gc-under-pressure.json');
  await page.getByTestId('speed').selectOption({ label: '100 ms/s' });
  await expect.poll(async () => ((await metrics(page)).gc as { runs: number }).runs, { timeout: 15_000 }).toBeGreaterThan(10);
  await page.getByTestId('power-fail').click();
  await expect.poll(async () => Number(await page.locator('[data-recovery-steps]').getAttribute('data-recovery-steps'))).toBeGreaterThanOrEqual(7);
  const t = await simNs(page);
  await expect.poll(() => simNs(page), { timeout: 15_000 }).toBeGreaterThan(t + 40_000_000);
  await page.keyboard.press(' '); // pause for stable pictures
  await expect(page.getByTestId('status')).toHaveAttribute('data-state', /paused|finished/);
  // No toast, no focus ring, no hover in the pictures.
  const notice = page.getByTestId('notice');
  if (await notice.isVisible()) await notice.getByRole('button', { name: 'Dismiss' }).click();
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400); // block map / CDF refresh
}

for (const theme of ['light', 'dark'] as const) {
  test(`page and views, ${theme} theme`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.addInitScript((t) => localStorage.setItem('ssdp.theme', t), theme);
    await interestingState(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.screenshot({ path: `${dir}page-${theme}.png` });
    await page.screenshot({ path: `${dir}page-${theme}-full.png`, fullPage: true });
    for (const [name, selector] of VIEWS) {
      await page.locator(selector).screenshot({ path: `${dir}view-${name}-${theme}.png` });
    }

    if (theme === 'light') {
      // The picture in docs/playground.md: the whole dashboard at 1280 wide.
      await page.setViewportSize({ width: 1280, height: 940 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(300);
      const file = `${repoRoot}docs/img/playground.png`;
      await page.screenshot({ path: file });
      expect(statSync(file).size, 'docs/img/playground.png stays under 300 KB').toBeLessThan(300 * 1024);
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    // Scenario drawer: library, and the editor with a problem.
    await page.keyboard.press('l');
    await page.screenshot({ path: `${dir}library-${theme}.png` });
    await page.getByTestId('tab-editor').click();
    const text = page.getByTestId('editor-text');
    await text.fill((await text.inputValue()).replace(/"channels": \d+/, '"channels": 99'));
    await expect(page.getByTestId('schema-errors')).toBeVisible();
    await page.screenshot({ path: `${dir}editor-${theme}.png` });
    await page.keyboard.press('Escape');

    await page.keyboard.press('?');
    await page.screenshot({ path: `${dir}help-${theme}.png` });
    await page.keyboard.press('Escape');

    await page.getByTestId('share').click();
    await page.screenshot({ path: `${dir}share-${theme}.png` });
  });
}

test('bad link banner', async ({ page }) => {
  await page.goto('./#s=garbage');
  await expect(page.getByTestId('error-banner')).toBeVisible();
  await waitForModel(page);
  await page.screenshot({ path: `${dir}bad-link.png` });
});
