// Shared helpers for the browser tests: reading the page's state from its
// data-* attributes, driving runs, and the repository paths the tests use.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

export interface ScenarioFile {
  path: string;
  title: string;
  description: string;
  json: Record<string, unknown>;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export function scenarioFile(relPath: string): ScenarioFile {
  const json = JSON.parse(readFileSync(`${repoRoot}${relPath}`, 'utf8')) as Record<string, unknown>;
  return { path: relPath, title: norm(String(json.title ?? '')), description: norm(String(json.description ?? '')), json };
}

export type Metrics = Record<string, unknown> & { sim: { end_ns: number; events: number; wall_s: number } };

/** Collects page errors and console errors; assert it is empty at the end of a test. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  return errors;
}

export async function metrics(page: Page): Promise<Metrics> {
  const raw = await page.getByTestId('metrics').getAttribute('data-metrics');
  expect(raw, 'data-metrics is set').toBeTruthy();
  return JSON.parse(raw!) as Metrics;
}

export async function simNs(page: Page): Promise<number> {
  return Number(await page.getByTestId('metrics').getAttribute('data-sim-ns'));
}

/** Waits until a scenario is loaded and the model has produced a frame. */
export async function waitForModel(page: Page): Promise<void> {
  await expect(page.getByTestId('metrics')).toHaveAttribute('data-metrics', /"sim"/, { timeout: 20_000 });
}

/** Presses "Run to end" and waits for data-finished. */
export async function runToEnd(page: Page, timeout = 60_000): Promise<Metrics> {
  await waitForModel(page);
  const finished = page.getByTestId('metrics');
  if ((await finished.getAttribute('data-finished')) !== 'true') await page.getByTestId('run-to-end').click();
  await expect(finished).toHaveAttribute('data-finished', 'true', { timeout });
  return metrics(page);
}

/** Opens a library scenario through the picker. */
export async function openLibraryScenario(page: Page, relPath: string): Promise<void> {
  await page.getByTestId('open-scenarios').click();
  await page.getByTestId('tab-library').click();
  await page.locator(`[data-testid="library-entry"][data-path="${relPath}"]`).click();
  await expect(page.getByTestId('scenario-drawer')).toBeHidden();
  await expect(page.getByTestId('scenario-title')).toHaveText(scenarioFile(relPath).title);
  await waitForModel(page);
}

/** The metrics without sim.wall_s (wall-clock time differs between any two runs). */
export function withoutWallTime(m: Metrics): Metrics {
  const copy = structuredClone(m);
  delete (copy.sim as Partial<Metrics['sim']>).wall_s;
  return copy;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i]!;
}
