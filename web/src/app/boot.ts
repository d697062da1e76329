// Choosing and loading scenarios: the default, a library entry, a share link,
// editor text. A share link is handled like an untrusted file: size caps and
// decoding (scenarios/share.ts), the schema, then the model's own loader; if
// any step fails the page says why and opens the default scenario instead.
import { defaultEntry } from '../scenarios/catalog';
import type { LibraryEntry } from '../scenarios/library';
import { decodeShareHash } from '../scenarios/share';
import { normalizeText } from '../scenarios/summary';
import { checkScenarioValue } from '../scenarios/validate';
import type { LoadResult } from '../bridge/protocol';
import type { LoadedScenario, Playground, ScenarioSource } from './playground';

export function scenarioFromValue(value: Record<string, unknown>, source: ScenarioSource, text?: string): LoadedScenario {
  return {
    text: text ?? JSON.stringify(value, null, 2),
    title: typeof value.title === 'string' && value.title.trim() ? normalizeText(value.title) : 'Untitled scenario',
    description: typeof value.description === 'string' ? normalizeText(value.description) : '',
    source,
  };
}

export function loadEntry(pg: Playground, entry: LibraryEntry, autoplay = true): Promise<LoadResult> {
  const value = JSON.parse(entry.json) as Record<string, unknown>;
  return pg.load(scenarioFromValue(value, { kind: 'library', path: entry.path }, entry.json), {
    autoplay,
    suggestSpeed: true,
  });
}

export async function loadDefault(pg: Playground): Promise<void> {
  if (!defaultEntry) {
    pg.store.set({ phase: 'failed', fatal: 'no scenario was built into this site (scenarios/basics/default.json is missing)' });
    return;
  }
  const result = await loadEntry(pg, defaultEntry, true);
  if (!result.ok) pg.store.set({ phase: 'failed', fatal: `the default scenario does not load: ${result.error}` });
}

/** Clears a `#s=` fragment without reloading or firing hashchange. */
export function clearShareHash(): void {
  if (window.location.hash) {
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
}

function firstLines(items: string[], n: number): string {
  const shown = items.slice(0, n).join('; ');
  return items.length > n ? `${shown}; and ${items.length - n} more` : shown;
}

/**
 * Opens the scenario carried by a URL fragment. Returns 'none' when there is
 * no `#s=`; otherwise loads it, or shows a banner naming the problem and
 * (when `fallback`) loads the default scenario.
 */
export async function openShareLink(pg: Playground, hash: string, fallback: boolean): Promise<'none' | 'ok' | 'error'> {
  const decoded = decodeShareHash(hash);
  if (decoded.kind === 'none') return 'none';
  const previous = pg.state.scenario;
  let problem: string;
  if (decoded.kind === 'error') {
    problem = decoded.error;
  } else {
    const check = checkScenarioValue(decoded.value);
    if (!check.ok) {
      problem = `its scenario is invalid: ${firstLines(
        check.issues.map((i) => `${i.path}: ${i.message}`),
        3,
      )}`;
    } else {
      const scenario = scenarioFromValue(check.value, { kind: 'link' });
      const result = await pg.load(scenario, { autoplay: true, suggestSpeed: true });
      if (result.ok) {
        pg.showBanner(null);
        return 'ok';
      }
      problem = `the model refused its scenario: ${firstLines(result.error.split('\n').filter(Boolean), 3)}`;
    }
  }
  pg.showBanner(
    `This share link could not be used: ${problem}. ${fallback ? 'The default scenario was loaded instead.' : 'The current scenario is unchanged.'}`,
  );
  if (fallback) await loadDefault(pg);
  else if (!pg.state.device) await restore(pg, previous);
  return 'error';
}

/** After a failed load the model has no scenario: bring back the previous one. */
async function restore(pg: Playground, previous: LoadedScenario | null, autoplay = true): Promise<void> {
  if (previous && (await pg.load(previous, { autoplay })).ok) return;
  await loadDefault(pg);
}

/**
 * Runs scenario text from the editor or a file. The schema check is the
 * caller's (it shows the issues live); the model's verdict comes back here.
 * If the model refuses, the previous scenario is reloaded so the page keeps
 * working, and the error is returned for the editor to show.
 */
export async function applyScenarioText(
  pg: Playground,
  value: Record<string, unknown>,
  text: string,
  source: ScenarioSource,
): Promise<LoadResult> {
  const previous = pg.state.scenario;
  const wasPlaying = pg.state.playing;
  const result = await pg.load(scenarioFromValue(value, source, text), { autoplay: true, suggestSpeed: true });
  // A refused scenario leaves the model as it was; only a failure after the
  // old model was replaced needs the previous scenario back.
  if (!result.ok && !pg.state.device) await restore(pg, previous, wasPlaying);
  else if (window.location.hash) clearShareHash();
  return result;
}

/** First load of the page: the share link if there is one, else the default scenario. */
export async function openInitial(pg: Playground, hash: string): Promise<void> {
  const outcome = await openShareLink(pg, hash, true);
  if (outcome === 'none') await loadDefault(pg);
}
