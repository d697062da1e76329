// Latency CDF from the model's histogram buckets ([upper_ns, count] pairs,
// ascending, non-empty buckets only). Pure: unit-tested in Node.

export interface CdfPoint {
  /** Bucket upper bound, µs. */
  us: number;
  /** Fraction of samples ≤ us (0..1]. */
  p: number;
}

/** Total sample count of a pair array. */
export function totalCount(pairs: ArrayLike<number>): number {
  let n = 0;
  for (let i = 1; i < pairs.length; i += 2) n += pairs[i]!;
  return n;
}

/**
 * The empirical CDF as points (upper bound µs, cumulative fraction). Buckets
 * with a zero count are skipped; an empty histogram gives [].
 */
export function cdfFromBuckets(pairs: ArrayLike<number>): CdfPoint[] {
  const total = totalCount(pairs);
  if (!(total > 0)) return [];
  const out: CdfPoint[] = [];
  let cum = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const count = pairs[i + 1]!;
    if (!(count > 0)) continue;
    cum += count;
    out.push({ us: pairs[i]! / 1000, p: Math.min(1, cum / total) });
  }
  return out;
}

/**
 * The nearest-rank p-th percentile (p in 0..100), as the model computes it:
 * the sample of rank ceil(p/100 × N), at least 1. Returned as the upper bound
 * (ns) of the bucket holding that sample; NaN for an empty histogram.
 */
export function percentileNs(pairs: ArrayLike<number>, p: number): number {
  const total = totalCount(pairs);
  if (!(total > 0)) return NaN;
  const rank = Math.max(1, Math.ceil((Math.min(100, Math.max(0, p)) / 100) * total));
  let cum = 0;
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    cum += pairs[i + 1]!;
    if (cum >= rank) return pairs[i]!;
  }
  return pairs[pairs.length - 2] ?? NaN;
}

export const MARKER_PERCENTILES = [
  { p: 50, label: 'p50' },
  { p: 99, label: 'p99' },
  { p: 99.9, label: 'p99.9' },
] as const;

export interface PercentileMarker {
  label: string;
  /** Cumulative fraction (0.5, 0.99, 0.999). */
  fraction: number;
  us: number;
}

export function percentileMarkers(pairs: ArrayLike<number>): PercentileMarker[] {
  if (!(totalCount(pairs) > 0)) return [];
  return MARKER_PERCENTILES.map((m) => ({
    label: m.label,
    fraction: m.p / 100,
    us: percentileNs(pairs, m.p) / 1000,
  }));
}

/**
 * Tail view: the "nines" of a cumulative fraction, −log10(1 − p), so 0.9 → 1,
 * 0.99 → 2, 0.999 → 3. p = 1 is capped at maxNines.
 */
export function nines(p: number, maxNines = 5): number {
  if (!(p < 1)) return maxNines;
  if (!(p > 0)) return 0;
  return Math.min(maxNines, -Math.log10(1 - p));
}

/** The largest nines worth showing for n samples (the last sample sits at 1 − 1/n). */
export function maxNinesFor(n: number): number {
  if (!(n > 1)) return 1;
  return Math.max(1, Math.min(6, Math.ceil(Math.log10(n))));
}

/** x-domain (µs) covering every CDF, padded to whole decades for a log axis. */
export function cdfDomainUs(curves: CdfPoint[][]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of curves) {
    for (const pt of c) {
      if (pt.us > 0 && pt.us < lo) lo = pt.us;
      if (pt.us > hi) hi = pt.us;
    }
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [1, 1000];
  const d0 = Math.pow(10, Math.floor(Math.log10(lo)));
  let d1 = Math.pow(10, Math.ceil(Math.log10(hi)));
  if (d1 <= d0) d1 = d0 * 10;
  return [d0, d1];
}

/** Axis label for a nines value: 0 → "0%", 1 → "90%", 2 → "99%", 3 → "99.9%". */
export function ninesLabel(n: number): string {
  if (!(n > 0)) return '0%';
  const p = 100 * (1 - Math.pow(10, -n));
  return `${Number(p.toFixed(Math.max(0, Math.ceil(n) - 2)))}%`;
}
