// Requests held up by GC (the analysis JSON's "gc_delays"), shaped for the
// valid-copies view: each request against the valid pages of the GC run that
// held its die. Pure: unit-tested in Node.
import { num, numArray, obj } from './json';

export interface GcDelayRow {
  id: number;
  flow: number;
  isRead: boolean;
  latencyNs: number;
  /** The request's flash (reads) or buffer-wait (writes) stage. */
  waitNs: number;
  /** How long GC ops held the die while it waited. */
  gcBusyNs: number;
  plane: number;
  victim: number;
  /** Valid pages of the blocking run's victim: what it had to copy. */
  validPages: number;
  /** Pages it did copy; null while the run had not ended. */
  copies: number | null;
}

export interface GcDelays {
  /** Requests that waited for a flash op. */
  waited: number;
  /** ... of which GC ops on that op's die held up. */
  delayed: number;
  /** Delayed requests per valid-page count, ascending (over all of them). */
  byValid: { valid: number; requests: number }[];
  /** The slowest delayed requests (at most the analysis's cap). */
  rows: GcDelayRow[];
}

const COLUMNS = ['id', 'flow', 'read', 'latency_ns', 'wait_ns', 'gc_busy_ns', 'plane', 'victim', 'valid_pages', 'copies'] as const;

/** The analysis JSON's "gc_delays" as GcDelays, or null when it has none. */
export function parseGcDelays(analysis: unknown): GcDelays | null {
  const root = obj(analysis);
  if (typeof root.gc_delays !== 'object' || root.gc_delays === null) return null;
  const g = obj(root.gc_delays);
  // Columns by name, so a reordered or extended row still reads right.
  const names = Array.isArray(g.columns) ? g.columns.map(String) : [...COLUMNS];
  const col = Object.fromEntries(COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>;
  const at = (r: number[], c: (typeof COLUMNS)[number]) => (col[c] >= 0 ? (r[col[c]] ?? 0) : 0);
  const rows: GcDelayRow[] = [];
  if (Array.isArray(g.rows)) {
    for (const raw of g.rows) {
      const r = numArray(raw);
      if (r.length < COLUMNS.length) continue;
      const copies = at(r, 'copies');
      rows.push({
        id: at(r, 'id'),
        flow: at(r, 'flow'),
        isRead: at(r, 'read') !== 0,
        latencyNs: at(r, 'latency_ns'),
        waitNs: at(r, 'wait_ns'),
        gcBusyNs: at(r, 'gc_busy_ns'),
        plane: at(r, 'plane'),
        victim: at(r, 'victim'),
        validPages: at(r, 'valid_pages'),
        copies: copies < 0 ? null : copies,
      });
    }
  }
  const byValid: GcDelays['byValid'] = [];
  if (Array.isArray(g.by_valid_pages)) {
    for (const raw of g.by_valid_pages) {
      const r = numArray(raw);
      if (r.length >= 2 && r[1]! > 0) byValid.push({ valid: r[0]!, requests: r[1]! });
    }
    byValid.sort((a, b) => a.valid - b.valid);
  }
  return { waited: num(g.waited), delayed: num(g.delayed), byValid, rows };
}

/**
 * A small horizontal offset in [-0.35, 0.35] for a request's dot, fixed by its
 * id: dots with the same valid-page count spread out instead of stacking, and
 * do not move between refreshes.
 */
export function jitter(id: number): number {
  // A multiplicative hash (Knuth) of the id, to [0, 1).
  const h = Math.imul(id >>> 0, 2654435761) >>> 0;
  return (h / 2 ** 32 - 0.5) * 0.7;
}

/**
 * The x-axis range: from 0 (a victim with no valid page) to the block size,
 * or further if a count exceeds it (a block size the view does not know).
 */
export function validDomain(d: GcDelays, pagesPerBlock: number): [number, number] {
  let hi = Math.max(1, pagesPerBlock);
  for (const b of d.byValid) hi = Math.max(hi, b.valid);
  for (const r of d.rows) hi = Math.max(hi, r.validPages);
  return [0, hi];
}

/** The delayed requests' latency range (as a multiple of base) for the y axis, and whether it needs a log scale. */
export function latencyRange(rows: readonly GcDelayRow[], baseNs: number): { lo: number; hi: number; log: boolean } {
  if (rows.length === 0 || !(baseNs > 0)) return { lo: 0, hi: 1, log: false };
  let lo = Infinity;
  let hi = 0;
  for (const r of rows) {
    const x = r.latencyNs / baseNs;
    if (x > 0) lo = Math.min(lo, x);
    hi = Math.max(hi, x);
  }
  if (!Number.isFinite(lo)) return { lo: 0, hi: Math.max(1, hi), log: false };
  // Spread over more than a factor of 20: a log scale keeps the bulk readable.
  return hi / lo > 20 ? { lo, hi, log: true } : { lo: 0, hi: Math.max(1, hi), log: false };
}

/**
 * Ticks for a log axis over [lo, hi]: 1, 2 and 5 per decade, or only the
 * decades when that would give more than maxTicks.
 */
export function logTicks(lo: number, hi: number, maxTicks = 7): number[] {
  if (!(lo > 0) || !(hi >= lo)) return [];
  const all: number[] = [];
  const decades: number[] = [];
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 2, 5]) {
      const v = Number((m * 10 ** k).toPrecision(2));
      if (v < lo || v > hi) continue;
      all.push(v);
      if (m === 1) decades.push(v);
    }
  }
  return all.length <= maxTicks || decades.length < 2 ? all : decades;
}
