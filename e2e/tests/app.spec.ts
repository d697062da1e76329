// The playground page: the default scenario runs live, the controls and
// faults work, and the scenario editor reports problems by JSON path.
import { expect, test } from '@playwright/test';
import { metrics, runToEnd, scenarioFile, simNs, waitForModel, watchErrors } from './helpers';

const DEFAULT = scenarioFile('scenarios/basics/default.json');

test('the default scenario opens, plays by itself, and the dies change state', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./');

  await expect(page).toHaveTitle('SSD Playground');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('SSD Playground');
  await expect(page.getByTestId('scenario-title')).toHaveText(DEFAULT.title);
  await expect(page.getByTestId('scenario-description')).toHaveText(DEFAULT.description);
  await waitForModel(page);
  await expect(page.getByTestId('status')).toContainText('running');

  const dies = page.locator('[data-die]');
  const geometry = DEFAULT.json.device as { geometry: { channels: number; chips_per_channel: number } };
  await expect(dies).toHaveCount(geometry.geometry.channels * geometry.geometry.chips_per_channel);

  // Sample die states and metrics for a few seconds of wall time.
  const snapshots: string[] = [];
  const t0 = await simNs(page);
  const m0 = await metrics(page);
  for (let i = 0; i < 12; i++) {
    snapshots.push((await dies.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).join(','));
    await page.waitForTimeout(250);
  }
  const distinct = new Set(snapshots);
  expect(distinct.size, `die states seen: ${[...distinct].join(' | ')}`).toBeGreaterThan(2);
  const states = new Set(snapshots.join(',').split(','));
  expect(states.size, 'more than one die state appears').toBeGreaterThan(1);

  const m1 = await metrics(page);
  expect(await simNs(page)).toBeGreaterThan(t0);
  expect((m1.host as { requests: number }).requests).toBeGreaterThan((m0.host as { requests: number }).requests);
  expect(m1.sim.events).toBeGreaterThan(m0.sim.events);

  expect(errors, 'no errors in the browser console').toEqual([]);
});

test('play, pause, step and speed respond to buttons and keys', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./');
  await waitForModel(page);

  await page.keyboard.press(' ');
  await expect(page.getByTestId('status')).toHaveAttribute('data-state', 'paused');
  const paused = await simNs(page);
  await page.waitForTimeout(400);
  expect(await simNs(page), 'paused: simulated time stands still').toBe(paused);

  const e0 = (await metrics(page)).sim.events;
  await page.keyboard.press('s');
  await expect.poll(async () => (await metrics(page)).sim.events).toBe(e0 + 1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await metrics(page)).sim.events).toBe(e0 + 2);

  const speed = page.getByTestId('speed');
  const before = await speed.inputValue();
  await page.keyboard.press('+');
  await expect(speed).toHaveValue(String(Number(before) + 1));
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  await expect(speed).toHaveValue(String(Number(before) - 1));

  await page.getByTestId('play').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-state', 'running');

  // Reset reloads the scenario from t = 0.
  await page.keyboard.press('r');
  await expect.poll(() => simNs(page)).toBeLessThan(paused + 1);

  // The help overlay lists the shortcuts.
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toBeVisible();
  await expect(help).toContainText('Run to the end');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  expect(errors).toEqual([]);
});

test('power failure produces the recovery steps on the timeline', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./');
  await waitForModel(page);
  await expect.poll(() => simNs(page)).toBeGreaterThan(500_000);

  await page.getByTestId('power-fail').click();
  const timeline = page.locator('[data-recovery-steps]');
  await expect.poll(async () => Number(await timeline.getAttribute('data-recovery-steps'))).toBeGreaterThanOrEqual(7);
  await expect(page.locator('[data-kind="recovery_step"]').first()).toBeAttached();
  await expect.poll(async () => (await metrics(page)).power as { failures: number }).toMatchObject({ failures: 1 });
  const m = await metrics(page);
  expect((m.power as { last_recovery_ns: number }).last_recovery_ns).toBeGreaterThan(0);

  // The run carries on after the reboot and reaches the end.
  const end = await runToEnd(page);
  expect((end.power as { failures: number }).failures).toBe(1);
  expect(errors).toEqual([]);
});

test('failing a block picked on the block map retires it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./');
  await waitForModel(page);
  await page.keyboard.press(' '); // pause

  // Pick a block by clicking the block map, then B opens the dialog with it.
  await page.locator('.v-bm__canvas').click({ position: { x: 4, y: 4 } });
  await expect(page.getByTestId('notice')).toContainText(/Block \d+ picked/);
  const picked = /Block (\d+) picked/.exec((await page.getByTestId('notice').textContent()) ?? '')![1]!;
  await page.keyboard.press('b');
  const dialog = page.getByTestId('fail-block-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('fail-block-input')).toHaveValue(picked);
  await page.getByTestId('fail-block-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('notice')).toContainText(`Block ${picked} failed`);
  await expect(page.locator('[data-kind="block_retired"]').first()).toBeAttached();

  // The model now has it out of service: failing it again is refused, with its reason.
  await page.keyboard.press('b');
  await page.getByTestId('fail-block-input').fill(picked);
  await page.getByTestId('fail-block-confirm').click();
  await expect(page.getByTestId('notice')).toContainText('already retired');
  expect(errors).toEqual([]);
});

test('the editor names bad fields by JSON path, and the model’s verdict is shown on Apply', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('./');
  await waitForModel(page);

  await page.keyboard.press('l');
  await page.getByTestId('tab-editor').click();
  const text = page.getByTestId('editor-text');
  const original = await text.inputValue();
  expect(JSON.parse(original)).toEqual(DEFAULT.json);
  await expect(page.getByTestId('editor-status')).toHaveAttribute('data-valid', 'true');

  await text.fill(original.replace('"channels": 4', '"channels": 0').replace('"queue_depth": 16', '"queue_depth": 16, "colour": "blue"'));
  const problems = page.getByTestId('schema-errors');
  await expect(problems).toContainText('device.geometry.channels');
  await expect(problems).toContainText('0 is out of range; allowed 1..64');
  await expect(problems).toContainText('workload.flows[0].colour');
  await expect(page.getByTestId('editor-status')).toHaveAttribute('data-valid', 'false');

  await page.getByTestId('editor-apply').click();
  const model = page.getByTestId('model-errors');
  await expect(model).toContainText('device.geometry.channels');
  // The previous scenario is back and runs.
  await expect(page.getByTestId('scenario-title')).toHaveText(DEFAULT.title);
  await waitForModel(page);

  // A syntax error is located by line and column.
  await text.fill('{\n  "title": "x",\n  "seed": \n}');
  await expect(problems).toContainText(/line 4, column 1: invalid JSON/);

  // A valid edit runs.
  await text.fill(JSON.stringify({ ...DEFAULT.json, title: 'Edited in the browser' }, null, 2));
  await page.getByTestId('editor-apply').click();
  await expect(page.getByTestId('scenario-title')).toHaveText('Edited in the browser');
  await expect(model).toBeHidden();
  expect(errors).toEqual([]);
});

test('the theme toggle cycles light, dark and system and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('./');
  const html = page.locator('html');
  const toggle = page.getByTestId('theme-toggle');
  await expect(toggle).toHaveAttribute('data-theme-choice', 'system');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(toggle).toHaveAttribute('data-theme-choice', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('theme-toggle').click(); // → system, which is light now
  await expect(html).toHaveAttribute('data-theme', 'light');
  expect(await page.evaluate(() => localStorage.getItem('ssdp.theme'))).toBe('system');
});
