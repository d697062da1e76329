// Pure helpers that turn a scenario (untrusted JSON) into what the page shows.
// No DOM, no React: easy to unit-test and reusable by the CLI-facing docs tooling.

export interface ScenarioSummary {
  /** Short human title, e.g. "Default device". */
  title: string;
  /** One or two sentences on what the scenario shows. */
  description: string;
  /** The whole scenario, pretty-printed (2-space indent) for display. */
  json: string;
}

export type SummaryResult =
  | { ok: true; summary: ScenarioSummary }
  | { ok: false; error: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collapse runs of whitespace (including newlines) to single spaces and trim. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function requiredString(obj: Record<string, unknown>, field: string): string | { error: string } {
  const value = obj[field];
  if (value === undefined) return { error: `"${field}" is missing` };
  if (typeof value !== 'string') return { error: `"${field}" must be a string, got ${typeName(value)}` };
  const text = normalizeText(value);
  if (text === '') return { error: `"${field}" must not be empty` };
  return text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Validate the fields the page needs (top-level string "title" and "description")
 * and produce a display summary. Errors name the offending field.
 */
export function summarizeScenario(raw: unknown): SummaryResult {
  if (!isPlainObject(raw)) {
    return { ok: false, error: `scenario must be a JSON object, got ${typeName(raw)}` };
  }
  const title = requiredString(raw, 'title');
  if (typeof title !== 'string') return { ok: false, error: title.error };
  const description = requiredString(raw, 'description');
  if (typeof description !== 'string') return { ok: false, error: description.error };
  return { ok: true, summary: { title, description, json: JSON.stringify(raw, null, 2) } };
}

/**
 * A one-line "Title: description" label, cut at a word boundary to at most
 * `maxLength` characters (an ellipsis marks the cut).
 */
export function oneLineSummary(summary: Pick<ScenarioSummary, 'title' | 'description'>, maxLength = 120): string {
  const full = `${summary.title}: ${summary.description}`;
  if (full.length <= maxLength) return full;
  const room = Math.max(1, maxLength - 1); // keep one character for the ellipsis
  const cut = full.slice(0, room);
  const lastSpace = cut.lastIndexOf(' ');
  const head = lastSpace > summary.title.length + 1 ? cut.slice(0, lastSpace) : cut;
  return `${head.replace(/[\s:,;.]+$/, '')}…`;
}
