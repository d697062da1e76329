import { describe, expect, it } from 'vitest';
import { finiteMax, isolatedIndices, nearestIndex, timeDomain } from './series';
import { exportFilename, pngSize } from './chartExport';

describe('series helpers', () => {
  it('finds the largest finite value', () => {
    expect(finiteMax([1, NaN, 7, Infinity, 3], (d) => d)).toBe(7);
    expect(finiteMax([], (d: number) => d)).toBe(0);
  });

  it('finds values a gapped line would not draw', () => {
    expect(isolatedIndices([NaN, 5, NaN, 1, 2, NaN, 4])).toEqual([1, 6]);
    expect(isolatedIndices([3])).toEqual([0]);
    expect(isolatedIndices([1, 2])).toEqual([]);
  });

  it('finds the nearest time', () => {
    const ts = new Float64Array([10, 20, 30, 40]);
    expect(nearestIndex(ts, 0)).toBe(0);
    expect(nearestIndex(ts, 24)).toBe(1);
    expect(nearestIndex(ts, 26)).toBe(2);
    expect(nearestIndex(ts, 99)).toBe(3);
    expect(nearestIndex(new Float64Array(0), 5)).toBe(-1);
  });

  it('chooses an x-domain', () => {
    expect(timeDomain([])).toEqual([0, 1e6]);
    expect(timeDomain([1e6, 5e6])).toEqual([1e6, 5e6]);
    const [a, b] = timeDomain([2e6]);
    expect(a).toBeLessThan(2e6);
    expect(b).toBeGreaterThan(2e6);
  });
});

describe('export helpers', () => {
  it('makes safe file names', () => {
    expect(exportFilename('Latency CDF (µs)', 'svg')).toBe('latency-cdf-us.svg');
    expect(exportFilename('Throughput', 'png')).toBe('throughput.png');
    expect(exportFilename('chart.png', 'png')).toBe('chart.png');
    expect(exportFilename('../../etc/passwd', 'svg')).toBe('etc-passwd.svg');
    expect(exportFilename('   ', 'png')).toBe('chart.png');
  });
  it('sizes PNGs and caps huge ones', () => {
    expect(pngSize(400, 200, 2)).toEqual({ w: 800, h: 400 });
    const big = pngSize(10_000, 1000, 2);
    expect(big.w).toBeLessThanOrEqual(8192);
    expect(big.w / big.h).toBeCloseTo(10, 1);
  });
});
