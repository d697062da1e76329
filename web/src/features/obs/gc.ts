// The GC breakdown of the analysis JSON (its "gc" object), shaped for the GC
// view: the two classes of the instrumented-SSD paper (erase only, copy then
// erase), per plane and over time. Pure: unit-tested in Node.
import { num, obj, numArray } from './json';

export interface GcClass {
  runs: number;
  totalNs: number;
  meanNs: number;
  maxNs: number;
  copies: number;
}

export interface GcPlane {
  plane: number;
  eraseOnlyRuns: number;
  eraseOnlyNs: number;
  copyRuns: number;
  copyNs: number;
  copies: number;
}

export interface GcBin {
  t0: number;
  t1: number;
  /** Average planes inside an erase-only (copy-then-erase) run during the bin. */
  eraseOnlyPlanes: number;
  copyPlanes: number;
  /** Runs that started in the bin. */
  eraseOnlyRuns: number;
  copyRuns: number;
}

export interface GcSummary {
  started: number;
  complete: number;
  openAtEnd: number;
  /** Runs whose start or end the records lack, or that a power failure cut. */
  incomplete: number;
  pageCopies: number;
  erases: number;
  eraseBaselineNs: number;
  nsPerCopy: number;
  eraseOnly: GcClass;
  copyThenErase: GcClass;
  byPlane: GcPlane[];
  overTime: GcBin[];
}

function gcClass(v: unknown): GcClass {
  const o = obj(v);
  const runs = num(o.runs);
  const meanNs = num(o.mean_ns);
  return { runs, totalNs: num(o.total_ns, meanNs * runs), meanNs, maxNs: num(o.max_ns), copies: num(o.copies) };
}

/**
 * The "gc" object of the analysis JSON as a GcSummary, or null when the
 * analysis has none. Over-time bins end at the last record (records.last_ns),
 * so the last, partial bin is not under-counted.
 */
export function parseGc(analysis: unknown): GcSummary | null {
  const root = obj(analysis);
  if (typeof root.gc !== 'object' || root.gc === null) return null;
  const g = obj(root.gc);
  const byPlane: GcPlane[] = [];
  if (Array.isArray(g.by_plane)) {
    for (const row of g.by_plane) {
      const r = numArray(row);
      if (r.length < 6) continue;
      byPlane.push({ plane: r[0]!, eraseOnlyRuns: r[1]!, eraseOnlyNs: r[2]!, copyRuns: r[3]!, copyNs: r[4]!, copies: r[5]! });
    }
  }
  const ot = obj(g.over_time);
  const binNs = num(ot.bin_ns);
  const first = num(ot.first_ns);
  const lastNs = num(obj(root.records).last_ns, Infinity);
  const eoNs = numArray(ot.erase_only_ns);
  const cpNs = numArray(ot.copy_then_erase_ns);
  const eoRuns = numArray(ot.erase_only_runs);
  const cpRuns = numArray(ot.copy_then_erase_runs);
  const overTime: GcBin[] = [];
  if (binNs > 0) {
    for (let k = 0; k < eoNs.length; k++) {
      const t0 = first + k * binNs;
      const t1 = Math.max(t0 + 1, Math.min(t0 + binNs, lastNs));
      if (t0 >= lastNs && k > 0) break;
      overTime.push({
        t0,
        t1,
        eraseOnlyPlanes: (eoNs[k] ?? 0) / (t1 - t0),
        copyPlanes: (cpNs[k] ?? 0) / (t1 - t0),
        eraseOnlyRuns: eoRuns[k] ?? 0,
        copyRuns: cpRuns[k] ?? 0,
      });
    }
  }
  return {
    started: num(g.started),
    complete: num(g.complete),
    openAtEnd: num(g.open_at_end),
    incomplete: num(g.end_without_start) + num(g.end_lost) + num(g.interrupted),
    pageCopies: num(g.page_copies),
    erases: num(g.erases),
    eraseBaselineNs: num(g.erase_baseline_ns),
    nsPerCopy: num(g.ns_per_copy),
    eraseOnly: gcClass(g.erase_only),
    copyThenErase: gcClass(g.copy_then_erase),
    byPlane,
    overTime,
  };
}

/**
 * A class's mean run split the way the paper draws it: the erase (at most the
 * erase baseline) and what came before it (copying valid pages, waiting for
 * the die).
 */
export function splitMean(c: GcClass, eraseBaselineNs: number): { eraseNs: number; restNs: number } {
  const eraseNs = Math.min(c.meanNs, Math.max(0, eraseBaselineNs));
  return { eraseNs, restNs: Math.max(0, c.meanNs - eraseNs) };
}

/** True when the records hold any GC activity worth drawing. */
export function hasGc(g: GcSummary | null): g is GcSummary {
  return g !== null && (g.started > 0 || g.complete > 0 || g.overTime.some((b) => b.eraseOnlyPlanes + b.copyPlanes > 0));
}
