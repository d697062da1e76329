// The scenario library: every scenarios/<topic>/*.json file, inlined into the
// bundle at build time and grouped by topic folder for the picker.
import { normalizeText } from './summary';

export interface LibraryEntry {
  /** Repository-relative path, as the CLI takes it: `scenarios/basics/default.json`. */
  path: string;
  /** Topic folder, e.g. `basics`. */
  topic: string;
  /** File name without `.json`, e.g. `default`. */
  name: string;
  title: string;
  description: string;
  /** The scenario, pretty-printed (2-space indent). */
  json: string;
}

export interface LibraryGroup {
  topic: string;
  entries: LibraryEntry[];
}

export const DEFAULT_SCENARIO_PATH = 'scenarios/basics/default.json';

function text(value: unknown): string {
  return typeof value === 'string' ? normalizeText(value) : '';
}

/**
 * Builds the library from a glob result (keys are paths ending in
 * `scenarios/<topic>/<name>.json`). Topics are sorted with `basics` first;
 * within a topic, `default` first, then by name. Non-object files are skipped.
 */
export function buildLibrary(modules: Record<string, unknown>): LibraryGroup[] {
  const byTopic = new Map<string, LibraryEntry[]>();
  for (const [key, value] of Object.entries(modules)) {
    const m = /(?:^|\/)scenarios\/(.+)\/([^/]+)\.json$/.exec(key);
    if (!m || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const topic = m[1]!;
    const name = m[2]!;
    if (name === 'schema') continue;
    const obj = value as Record<string, unknown>;
    const entry: LibraryEntry = {
      path: `scenarios/${topic}/${name}.json`,
      topic,
      name,
      title: text(obj.title) || name,
      description: text(obj.description),
      json: JSON.stringify(obj, null, 2),
    };
    const list = byTopic.get(topic) ?? [];
    list.push(entry);
    byTopic.set(topic, list);
  }
  const rank = (t: string) => (t === 'basics' ? 0 : 1);
  return [...byTopic.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([topic, entries]) => ({
      topic,
      entries: entries.sort((a, b) => (a.name === 'default' ? -1 : b.name === 'default' ? 1 : a.name.localeCompare(b.name))),
    }));
}

/** Finds an entry by repository path. */
export function findEntry(groups: LibraryGroup[], path: string): LibraryEntry | undefined {
  for (const g of groups) for (const e of g.entries) if (e.path === path) return e;
  return undefined;
}

/** Short file name for downloads: `default.json` → `default`, else a slug of the title. */
export function slugify(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'scenario';
}
