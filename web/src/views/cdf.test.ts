import { describe, expect, it } from 'vitest';
import {
  cdfDomainUs,
  cdfFromBuckets,
  maxNinesFor,
  nines,
  ninesLabel,
  percentileMarkers,
  percentileNs,
  totalCount,
} from './cdf';
import { bucketUpperNs, bucketsFromSamples, rng } from './fixtures';

const pairs = new Float64Array([1000, 2, 2000, 0, 4000, 5, 10_000, 3]);

describe('cdfFromBuckets', () => {
  it('accumulates counts over the total, skipping empty buckets', () => {
    expect(totalCount(pairs)).toBe(10);
    expect(cdfFromBuckets(pairs)).toEqual([
      { us: 1, p: 0.2 },
      { us: 4, p: 0.7 },
      { us: 10, p: 1 },
    ]);
  });
  it('is empty for an empty histogram', () => {
    expect(cdfFromBuckets(new Float64Array(0))).toEqual([]);
    expect(cdfFromBuckets(new Float64Array([1000, 0]))).toEqual([]);
  });
});

describe('percentileNs (nearest rank, like the model)', () => {
  it('returns the bucket holding the sample of rank ceil(p/100 * N)', () => {
    expect(percentileNs(pairs, 20)).toBe(1000); // rank 2
    expect(percentileNs(pairs, 21)).toBe(4000); // rank 3
    expect(percentileNs(pairs, 70)).toBe(4000); // rank 7
    expect(percentileNs(pairs, 71)).toBe(10_000); // rank 8
    expect(percentileNs(pairs, 0)).toBe(1000); // at least rank 1
    expect(percentileNs(pairs, 100)).toBe(10_000);
  });
  it('is NaN when there are no samples', () => {
    expect(percentileNs(new Float64Array(0), 50)).toBeNaN();
  });
  it('agrees with sorting the raw samples', () => {
    const r = rng(7);
    const samples = Array.from({ length: 5000 }, () => Math.floor(1000 + 200_000 * r() * r()));
    const b = bucketsFromSamples(samples);
    const sorted = [...samples].sort((a, c) => a - c);
    for (const p of [1, 50, 90, 99, 99.9]) {
      const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
      expect(percentileNs(b, p)).toBe(bucketUpperNs(sorted[rank - 1]!));
    }
  });
});

describe('percentileMarkers', () => {
  it('gives p50, p99 and p99.9 in µs', () => {
    const m = percentileMarkers(pairs);
    expect(m.map((x) => x.label)).toEqual(['p50', 'p99', 'p99.9']);
    expect(m[0]).toEqual({ label: 'p50', fraction: 0.5, us: 4 });
    expect(m[2]!.us).toBe(10);
    expect(percentileMarkers(new Float64Array(0))).toEqual([]);
  });
});

describe('nines', () => {
  it('maps cumulative fractions to nines', () => {
    expect(nines(0)).toBe(0);
    expect(nines(0.9)).toBeCloseTo(1);
    expect(nines(0.99)).toBeCloseTo(2);
    expect(nines(0.999)).toBeCloseTo(3);
    expect(nines(1, 4)).toBe(4);
  });
  it('labels the axis', () => {
    expect(ninesLabel(0)).toBe('0%');
    expect(ninesLabel(1)).toBe('90%');
    expect(ninesLabel(2)).toBe('99%');
    expect(ninesLabel(3)).toBe('99.9%');
    expect(ninesLabel(4)).toBe('99.99%');
  });
  it('shows as many nines as the sample count supports', () => {
    expect(maxNinesFor(0)).toBe(1);
    expect(maxNinesFor(100)).toBe(2);
    expect(maxNinesFor(20_000)).toBe(5);
  });
});

describe('cdfDomainUs', () => {
  it('pads to whole decades', () => {
    expect(cdfDomainUs([cdfFromBuckets(pairs)])).toEqual([1, 10]);
    expect(cdfDomainUs([[{ us: 35, p: 0.5 }, { us: 1200, p: 1 }]])).toEqual([10, 10_000]);
    expect(cdfDomainUs([])).toEqual([1, 1000]);
  });
});

describe('bucketUpperNs (fixture mirror of the model histogram)', () => {
  it('is exact below 256 ns and 1/128 of a power of two above', () => {
    expect(bucketUpperNs(100)).toBe(100);
    expect(bucketUpperNs(256)).toBe(257);
    expect(bucketUpperNs(1024)).toBe(1031);
    expect(bucketUpperNs(1031)).toBe(1031);
    expect(bucketUpperNs(1032)).toBe(1039);
  });
});
