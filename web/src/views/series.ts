// Helpers for the time-series chart. Pure: unit-tested in Node.

/** Largest finite value of accessor over items (0 when there is none). */
export function finiteMax<T>(items: readonly T[], accessor: (d: T) => number): number {
  let m = 0;
  for (const d of items) {
    const v = accessor(d);
    if (Number.isFinite(v) && v > m) m = v;
  }
  return m;
}

/**
 * Indices of finite values whose neighbours are both missing (NaN or out of
 * range): a line with gaps draws nothing for them, so the chart marks them
 * with a dot.
 */
export function isolatedIndices(values: ArrayLike<number>): number[] {
  const out: number[] = [];
  const n = values.length;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i]!)) continue;
    const prev = i > 0 && Number.isFinite(values[i - 1]!);
    const next = i + 1 < n && Number.isFinite(values[i + 1]!);
    if (!prev && !next) out.push(i);
  }
  return out;
}

/** Index of the element of ascending ts nearest to t (−1 when empty). */
export function nearestIndex(ts: ArrayLike<number>, t: number): number {
  const n = ts.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(ts[lo - 1]! - t) <= Math.abs(ts[lo]! - t)) return lo - 1;
  return lo;
}

/**
 * The x-domain for n series points: first to last time; a single point gets a
 * window around it; no points give [0, 1 ms].
 */
export function timeDomain(ts: ArrayLike<number>): [number, number] {
  const n = ts.length;
  if (n === 0) return [0, 1e6];
  const a = ts[0]!;
  const b = ts[n - 1]!;
  if (b > a) return [a, b];
  const pad = Math.max(1000, Math.abs(a) * 0.05);
  return [Math.max(0, a - pad), a + pad];
}
