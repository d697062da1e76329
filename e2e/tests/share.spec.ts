// Share links: a link carries the whole scenario and reproduces its run
// exactly; a bad link is refused with a clear message, never executed.
import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { metrics, openLibraryScenario, runToEnd, scenarioFile, waitForModel, watchErrors } from './helpers';

// lz-string is CommonJS without detectable named exports: load it with require.
const { compressToEncodedURIComponent } = createRequire(import.meta.url)('lz-string') as typeof import('lz-string');

const DEFAULT = scenarioFile('scenarios/basics/default.json');

test('a share link reproduces the scenario and its metrics in a new page', async ({ page, context }) => {
  const errors = watchErrors(page);
  const source = scenarioFile('scenarios/basics/mixed-flows.json');
  await page.goto('./');
  await waitForModel(page);
  await openLibraryScenario(page, source.path);

  await page.getByTestId('share').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/#s=[A-Za-z0-9+\-$]+$/);
  expect(page.url(), 'the address bar carries the link too').toBe(link);
  await page.keyboard.press('Escape');

  const other = await context.newPage();
  const otherErrors = watchErrors(other);
  await other.goto(link);
  await expect(other.getByTestId('scenario-title')).toHaveText(source.title);
  await expect(other.getByTestId('error-banner')).toHaveCount(0);

  // Same scenario text in the editor (whitespace aside).
  await other.keyboard.press('l');
  await other.getByTestId('tab-editor').click();
  expect(JSON.parse(await other.getByTestId('editor-text').inputValue())).toEqual(source.json);
  await other.keyboard.press('Escape');

  const [a, b] = await Promise.all([runToEnd(page), runToEnd(other)]);
  expect(b).toEqual(a);
  expect(a.sim.events).toBeGreaterThan(0);
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

test('a malformed link shows an error and opens the default scenario', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./#s=garbage');
  const banner = page.getByTestId('error-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('This share link could not be used');
  await expect(banner).toContainText('could not be decompressed');
  await expect(banner).toContainText('default scenario was loaded instead');
  await expect(page.getByTestId('scenario-title')).toHaveText(DEFAULT.title);
  await waitForModel(page);
  await expect.poll(async () => (await metrics(page)).sim.events).toBeGreaterThan(0);

  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toBeHidden();
  expect(errors).toEqual([]);
});

test('links that are too long, invalid or code are refused by name', async ({ page }) => {
  // Oversized: refused before decoding.
  await page.goto(`./#s=${'A'.repeat(70 * 1024)}`);
  await expect(page.getByTestId('error-banner')).toContainText('too long');
  await expect(page.getByTestId('scenario-title')).toHaveText(DEFAULT.title);

  // Valid compression, invalid scenario: the schema names the field.
  const bad = compressToEncodedURIComponent(JSON.stringify({ ...DEFAULT.json, device: { geometry: { channels: 0 } } }));
  await page.goto(`./#s=${bad}`);
  await expect(page.getByTestId('error-banner')).toContainText('device.geometry.channels: 0 is out of range; allowed 1..64');
  await expect(page.getByTestId('scenario-title')).toHaveText(DEFAULT.title);

  // Script in a link is only ever text: it is not JSON, so it is refused, and nothing runs.
  await page.evaluate(() => ((window as unknown as { pwned: boolean }).pwned = false));
  const script = compressToEncodedURIComponent('<img src=x onerror="window.pwned=true">');
  await page.goto(`./#s=${script}`);
  await expect(page.getByTestId('error-banner')).toContainText('not valid JSON');
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned ?? false)).toBe(false);
  expect(await page.locator('img[src="x"]').count()).toBe(0);

  // A title with markup is shown as text.
  const markup = compressToEncodedURIComponent(JSON.stringify({ ...DEFAULT.json, title: '<b onmouseover=alert(1)>bold</b>' }));
  await page.goto(`./#s=${markup}`);
  await expect(page.getByTestId('scenario-title')).toHaveText('<b onmouseover=alert(1)>bold</b>');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
});
