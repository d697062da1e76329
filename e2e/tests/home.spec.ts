import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const scenarioFile = fileURLToPath(new URL('../../scenarios/basics/default.json', import.meta.url));
const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

function defaultScenario(): { title: string; description: string } {
  let text: string;
  try {
    text = readFileSync(scenarioFile, 'utf8');
  } catch {
    throw new Error(`the default scenario is missing: expected ${scenarioFile}`);
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) throw new Error('default.json is not an object');
  const { title, description } = parsed as Record<string, unknown>;
  if (typeof title !== 'string' || typeof description !== 'string') {
    throw new Error('default.json needs top-level string fields "title" and "description"');
  }
  // The page normalizes whitespace; compare the same way.
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return { title: norm(title), description: norm(description) };
}

test('home page shows the product name and the default scenario', async ({ page }, testInfo) => {
  const expected = defaultScenario();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`${msg.text()} (${msg.location().url})`);
  });

  await page.goto('./');

  await expect(page).toHaveTitle('SSD Playground');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('SSD Playground');
  await expect(page.getByTestId('scenario-title')).toHaveText(expected.title);
  await expect(page.getByTestId('scenario-description')).toHaveText(expected.description);
  await expect(page.locator('pre code')).toContainText(`"title"`);

  const shot = await page.screenshot({ path: `${artifacts}home.png`, fullPage: true });
  await testInfo.attach('home', { body: shot, contentType: 'image/png' });

  expect(errors, 'no errors in the browser console').toEqual([]);
});
