import { describe, expect, it } from 'vitest';
import type { RequestRow } from './analysis';
import { clearKept, flowCurves, keepCurves, keptCurves, quantile } from './workloadCdf';

const row = (flow: number, latencyNs: number): RequestRow => ({
  id: 0,
  flow,
  isRead: false,
  offsetBytes: 0,
  bytes: 4096,
  submitNs: 0,
  latencyNs,
  blamed: null,
  stagesNs: [],
});

describe('flowCurves', () => {
  it('gives each flow its own sorted, normalised distribution ending at 1', () => {
    const rows = [row(0, 300), row(1, 1000), row(0, 100), row(0, 200), row(1, 3000)];
    const [a, b] = flowCurves(rows, ['log', 'checkpoint'], 100, 'run');
    expect(a!.label).toBe('run · log');
    expect(a!.points).toEqual([
      [1, 1 / 3],
      [2, 2 / 3],
      [3, 1],
    ]);
    expect(b!.points.map((p) => p[0])).toEqual([10, 30]);
    expect(a!.p50).toBe(2);
    expect(b!.p99).toBe(30);
  });

  it('thins long distributions but keeps the maximum', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => row(0, i + 1));
    const [c] = flowCurves(rows, ['only'], 1, '', 100);
    expect(c!.points.length).toBeLessThanOrEqual(101);
    expect(c!.points[c!.points.length - 1]).toEqual([10_000, 1]);
    for (let i = 1; i < c!.points.length; i++) expect(c!.points[i]![0]).toBeGreaterThanOrEqual(c!.points[i - 1]![0]);
  });

  it('leaves out flows without requests', () => {
    expect(flowCurves([row(1, 5)], ['a', 'b', 'c'], 1, '').map((c) => c.flow)).toEqual([1]);
  });
});

describe('quantile', () => {
  it('uses the nearest rank', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.99)).toBe(4);
    expect(quantile([], 0.5)).toBe(0);
  });
});

describe('kept curves', () => {
  it('replaces a curve kept again under the same label and holds at most eight', () => {
    clearKept();
    const one = flowCurves([row(0, 1)], ['f'], 1, 'A');
    keepCurves(one);
    keepCurves(one);
    expect(keptCurves()).toHaveLength(1);
    for (let i = 0; i < 10; i++) keepCurves(flowCurves([row(0, 1)], ['f'], 1, `run ${i}`));
    expect(keptCurves()).toHaveLength(8);
    expect(keptCurves()[7]!.label).toBe('run 9 · f');
    clearKept();
    expect(keptCurves()).toHaveLength(0);
  });
});
