import { describe, expect, it } from 'vitest';
import { histDomain, histogram, linkDownIntervals, linkState, secondaryDown, statusFlags } from './replication';

describe('status bits', () => {
  it('decodes the link bits per secondary', () => {
    expect(secondaryDown(259, 0)).toBe(true); // 0x103: primary, link down, secondary 0 down
    expect(secondaryDown(259, 1)).toBe(false);
    expect(statusFlags(259)).toEqual(['primary', 'link down']);
    expect(statusFlags(1 | 4)).toEqual(['primary', 'overrun']);
  });
  it('names a link dropped, down or up', () => {
    expect(linkState({ active: false, linkUp: false })).toBe('dropped');
    expect(linkState({ active: true, linkUp: false })).toBe('down');
    expect(linkState({ active: true, linkUp: true })).toBe('up');
  });
  it('finds the intervals each link was down', () => {
    const changes = [
      { t: 0, bits: 1, role: 1, secondary: 0 },
      { t: 5, bits: 1 | 2 | (1 << 8), role: 1, secondary: 0 },
      { t: 7, bits: 1 | 2 | (1 << 8) | (1 << 9), role: 1, secondary: 1 },
      { t: 9, bits: 1 | 2 | (1 << 9), role: 1, secondary: 0 },
    ];
    expect(linkDownIntervals(changes, 2, 20)).toEqual([[{ start: 5, end: 9 }], [{ start: 7, end: 20 }]]);
    expect(linkDownIntervals([], 1, 20)).toEqual([[]]);
  });
});

describe('histogram', () => {
  it('bins values from min to max, the max in the last bin', () => {
    const h = histogram([1, 2, 2, 3, 5], 4);
    expect(h.map((b) => b.count)).toEqual([1, 2, 1, 1]);
    expect(h[0]!.x0).toBe(1);
    expect(h[3]!.x1).toBe(5);
  });
  it('gives one narrow bin around a single repeated value and none for no values', () => {
    const [b] = histogram([4.7, 4.7]);
    expect(b!.count).toBe(2);
    expect(b!.x0).toBeLessThan(4.7);
    expect(b!.x1).toBeGreaterThan(4.7);
    expect(b!.x1 - b!.x0).toBeLessThan(0.1);
    expect(histogram([])).toEqual([]);
  });
  it('pads the drawn range so a lone bin is not the whole axis', () => {
    const [lo, hi] = histDomain(histogram([4.7, 4.7]), 0.25);
    expect(lo).toBeCloseTo(4.7 - 0.25 - 0.0235);
    expect(hi).toBeCloseTo(4.7 + 0.25 + 0.0235);
    expect(histDomain(histogram([0, 10], 10), 0.25)).toEqual([-1, 11]);
  });
});
