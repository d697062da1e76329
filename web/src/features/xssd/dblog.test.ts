import { describe, expect, it } from 'vitest';
import { commitBins, txnRate } from './dblog';

describe('commitBins', () => {
  it('sums groups, transactions and bytes per bin and averages the flush time', () => {
    const bins = commitBins(
      [
        { t: 10, target: 0, txns: 32, bytes: 16384, flushNs: 10_000 },
        { t: 90, target: 0, txns: 16, bytes: 8192, flushNs: 20_000 },
        { t: 250, target: 0, txns: 8, bytes: 4096, flushNs: 5_000 },
      ],
      100,
      300,
    );
    expect(bins.map((b) => [b.groups, b.txns, b.bytes])).toEqual([
      [2, 48, 24576],
      [0, 0, 0],
      [1, 8, 4096],
    ]);
    expect(bins[0]!.flushMeanNs).toBe(15_000);
    expect(bins[0]!.flushMaxNs).toBe(20_000);
    expect(bins[1]!.flushMeanNs).toBeNaN();
    expect(txnRate(bins[0]!)).toBe(48 / 100e-9);
  });
  it('ends the last bin at the end time, so its rate covers only that time', () => {
    const bins = commitBins([{ t: 240, target: 0, txns: 10, bytes: 1, flushNs: 1 }], 100, 250);
    expect(bins.map((b) => [b.t0, b.t1])).toEqual([
      [0, 100],
      [100, 200],
      [200, 250],
    ]);
    expect(txnRate(bins[2]!)).toBe(10 / 50e-9);
  });
  it('puts a commit at the end time into the last bin', () => {
    const bins = commitBins([{ t: 300, target: 0, txns: 1, bytes: 1, flushNs: 1 }], 100, 300);
    expect(bins).toHaveLength(3);
    expect(bins[2]!.groups).toBe(1);
  });
});
