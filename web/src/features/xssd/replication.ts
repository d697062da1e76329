// Replication: link status from the transport's status register, and the
// replication-delay distribution. Pure: unit-tested.
import type { SecondaryMetrics } from './metrics';
import type { StatusChange } from './stream';

/** Status register bits (the transport's status word). */
export const STATUS_BITS = {
  primary: 1 << 0,
  linkDown: 1 << 1,
  overrun: 1 << 2,
  secondaryLost: 1 << 3,
  /** Bit 8 + i: secondary i's link is down. */
  firstLink: 8,
} as const;

/** Per-secondary colours (Okabe–Ito, through the views' variables). */
const SEC_COLORS = ['var(--x-shadow)', 'var(--x-tail)', 'var(--x-durable)', 'var(--x-read)'];

/** The colour of secondary i in every replication view. */
export function secColor(i: number): string {
  return SEC_COLORS[i % SEC_COLORS.length]!;
}

/** A link's state in words: dropped by an admin command, down, or up. */
export function linkState(s: Pick<SecondaryMetrics, 'active' | 'linkUp'>): 'up' | 'down' | 'dropped' {
  if (!s.active) return 'dropped';
  return s.linkUp ? 'up' : 'down';
}

/** True when the status word says secondary i's link is down. */
export function secondaryDown(bits: number, i: number): boolean {
  return ((bits >>> (STATUS_BITS.firstLink + i)) & 1) === 1;
}

/** The register's flags in words ("primary", "link down", …). */
export function statusFlags(bits: number): string[] {
  const out: string[] = [];
  if (bits & STATUS_BITS.primary) out.push('primary');
  if (bits & STATUS_BITS.linkDown) out.push('link down');
  if (bits & STATUS_BITS.overrun) out.push('overrun');
  if (bits & STATUS_BITS.secondaryLost) out.push('secondary lost');
  return out;
}

/** A stretch of time a link was down: [start, end); end is endNs if it still is. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * For each of `secondaries` links, the intervals its status bit (8 + i) was
 * set, from the time-ordered status changes up to endNs.
 */
export function linkDownIntervals(changes: readonly StatusChange[], secondaries: number, endNs: number): Interval[][] {
  const out: Interval[][] = [];
  for (let i = 0; i < secondaries; i++) {
    const list: Interval[] = [];
    let downSince = -1;
    for (const c of changes) {
      const down = secondaryDown(c.bits, i);
      if (down && downSince < 0) downSince = c.t;
      else if (!down && downSince >= 0) {
        list.push({ start: downSince, end: c.t });
        downSince = -1;
      }
    }
    if (downSince >= 0) list.push({ start: downSince, end: Math.max(endNs, downSince) });
    out.push(list);
  }
  return out;
}

export interface HistBin {
  x0: number;
  x1: number;
  count: number;
}

/**
 * A histogram of values in `bins` equal bins from the smallest to the largest
 * value (a single value gets one narrow bin around it). Empty input, no bins.
 */
export function histogram(values: readonly number[], bins = 24): HistBin[] {
  if (values.length === 0) return [];
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (hi === lo) {
    // One value: a narrow bin around it (its width is arbitrary; keep it thin).
    const eps = Math.max(1e-6, Math.abs(lo) * 0.005);
    return [{ x0: lo - eps, x1: hi + eps, count: values.length }];
  }
  const n = Math.max(1, Math.floor(bins));
  const w = (hi - lo) / n;
  const out: HistBin[] = [];
  for (let i = 0; i < n; i++) out.push({ x0: lo + i * w, x1: lo + (i + 1) * w, count: 0 });
  for (const v of values) out[Math.min(n - 1, Math.floor((v - lo) / w))]!.count++;
  return out;
}

/**
 * The x range to draw a histogram over: the bins plus a margin of a tenth of
 * their span, at least `minPad` either side (a single narrow bin stays readable).
 */
export function histDomain(bins: readonly HistBin[], minPad: number): [number, number] {
  if (bins.length === 0) return [0, 1];
  const lo = bins[0]!.x0;
  const hi = bins[bins.length - 1]!.x1;
  const pad = Math.max((hi - lo) * 0.1, minPad);
  return [lo - pad, hi + pad];
}
