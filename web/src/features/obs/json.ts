// Tolerant readers for the analysis JSON: it crosses the worker boundary as
// `unknown`, and a missing or mistyped field must not break a view.

/** v as an object whose fields can be read (an empty one if it is not an object). */
export function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** v if it is a finite number, else fallback. */
export function num(v: unknown, fallback = 0): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** v if it is a finite number, else null (the JSON's "unknown"). */
export function numOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** v as an array of numbers (non-numbers become 0; not an array: empty). */
export function numArray(v: unknown): number[] {
  return Array.isArray(v) ? v.map((x) => num(x)) : [];
}
