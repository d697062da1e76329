// The database log writer's group commits over time. Pure: unit-tested.
import type { Commit } from './stream';

export interface CommitBin {
  t0: number;
  t1: number;
  groups: number;
  txns: number;
  bytes: number;
  /** Mean flush time of the bin's groups, ns (NaN without groups). */
  flushMeanNs: number;
  flushMaxNs: number;
}

/** Group commits per bin of binNs over [0, endNs] (the last bin ends at endNs): groups, transactions, bytes and flush times. */
export function commitBins(commits: readonly Commit[], binNs: number, endNs: number): CommitBin[] {
  const width = Math.max(1, binNs);
  const n = Math.max(1, Math.ceil(Math.max(endNs, 1) / width));
  const bins: CommitBin[] = [];
  for (let i = 0; i < n; i++) {
    const t1 = Math.min((i + 1) * width, Math.max(endNs, i * width + 1)); // the last bin ends at endNs
    bins.push({ t0: i * width, t1, groups: 0, txns: 0, bytes: 0, flushMeanNs: NaN, flushMaxNs: 0 });
  }
  const flushSum = new Float64Array(n);
  for (const c of commits) {
    const i = Math.min(n - 1, Math.floor(c.t / width));
    const b = bins[i]!;
    b.groups++;
    b.txns += c.txns;
    b.bytes += c.bytes;
    flushSum[i]! += c.flushNs;
    b.flushMaxNs = Math.max(b.flushMaxNs, c.flushNs);
  }
  bins.forEach((b, i) => {
    if (b.groups > 0) b.flushMeanNs = flushSum[i]! / b.groups;
  });
  return bins;
}

/** Transactions per second in a bin. */
export function txnRate(b: CommitBin): number {
  return b.txns / ((b.t1 - b.t0) / 1e9);
}
