import { describe, expect, it } from 'vitest';
import { REQUEST_ROW } from '../../bridge/protocol';
import { decodeRows, normalise, normalisedHistogram, shareWithin, slowest, stack, stageValues, type RequestRow } from './analysis';

function row(id: number, flow: number, latencyNs: number, blamed = -1, isRead = 0): number[] {
  const r = new Array<number>(REQUEST_ROW.width).fill(0);
  r[REQUEST_ROW.id] = id;
  r[REQUEST_ROW.flow] = flow;
  r[REQUEST_ROW.isRead] = isRead;
  r[REQUEST_ROW.offsetBytes] = id * 4096;
  r[REQUEST_ROW.bytes] = 16384;
  r[REQUEST_ROW.submitNs] = id * 1000;
  r[REQUEST_ROW.latencyNs] = latencyNs;
  r[REQUEST_ROW.blamed] = blamed;
  for (let s = 0; s < 6; s++) r[REQUEST_ROW.stages + s] = (s + 1) * 10;
  return r;
}

const mk = (id: number, flow: number, latencyNs: number): RequestRow => ({
  id,
  flow,
  isRead: false,
  offsetBytes: 0,
  bytes: 0,
  submitNs: 0,
  latencyNs,
  blamed: null,
  stagesNs: [],
});

describe('decodeRows', () => {
  it('decodes every column and names the blamed stage', () => {
    const rows = decodeRows(new Float64Array([...row(7, 1, 5000, 3, 1), ...row(8, 0, 10, -1)]));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      id: 7,
      flow: 1,
      isRead: true,
      offsetBytes: 7 * 4096,
      bytes: 16384,
      submitNs: 7000,
      latencyNs: 5000,
      blamed: 'flash',
      stagesNs: [10, 20, 30, 40, 50, 60],
    });
    expect(rows[1]!.blamed).toBeNull();
    expect(rows[1]!.isRead).toBe(false);
  });
  it('ignores a trailing partial row and handles empty input', () => {
    expect(decodeRows(new Float64Array([...row(1, 0, 1), 1, 2, 3]))).toHaveLength(1);
    expect(decodeRows(new Float64Array(0))).toEqual([]);
  });
});

describe('slowest', () => {
  it('returns the n slowest, slowest first, ties in row (completion) order', () => {
    const rows = [mk(1, 0, 5), mk(3, 0, 9), mk(2, 0, 9), mk(4, 0, 1)];
    expect(slowest(rows, 3).map((r) => r.id)).toEqual([3, 2, 1]);
    expect(slowest(rows, 10)).toHaveLength(4);
    expect(slowest(rows, 0)).toEqual([]);
    expect(rows.map((r) => r.id)).toEqual([1, 3, 2, 4]); // input untouched
  });
});

describe('normalisedHistogram', () => {
  it('bins latency / baseline per flow with an overflow bin', () => {
    const base = 1000;
    const rows = [mk(1, 0, 0), mk(2, 0, 1000), mk(3, 0, 1049), mk(4, 1, 300), mk(5, 1, 10_000), mk(6, 1, 50_000), mk(7, 5, 1)];
    const h = normalisedHistogram(rows, base, 2, 0.1, 10);
    expect(h.counts[0]).toHaveLength(101);
    expect(h.counts[0]![0]).toBe(1);
    expect(h.counts[0]![10]).toBe(2); // 1.0 and 1.049
    expect(h.counts[1]![3]).toBe(1); // exactly 0.3 lands in [0.3, 0.4)
    expect(h.counts[1]![100]).toBe(2); // 10 and 50 overflow
    expect(h.totals).toEqual([3, 3]); // flow 5 is out of range
  });
  it('normalise guards a zero baseline', () => {
    expect(normalise(500, 0)).toBe(0);
    expect(normalise(500, 1000)).toBe(0.5);
  });
  it('shareWithin counts the ideal band inclusively', () => {
    const rows = [mk(1, 0, 700), mk(2, 0, 1300), mk(3, 0, 1301), mk(4, 0, 100)];
    expect(shareWithin(rows, 1000)).toBe(0.5);
    expect(shareWithin([], 1000)).toBe(0);
  });
});

describe('stack / stageValues', () => {
  it('stacks values and clamps negatives', () => {
    expect(stack([3, -1, 2])).toEqual([
      { start: 0, len: 3 },
      { start: 3, len: 0 },
      { start: 3, len: 2 },
    ]);
  });
  it('orders stages as REQUEST_STAGES and fills missing with 0', () => {
    expect(stageValues({ flash: 5, fetch: 1 })).toEqual([1, 0, 0, 5, 0, 0]);
    expect(stageValues(undefined)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
