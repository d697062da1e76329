import { describe, expect, it } from 'vitest';
import { destageThroughput, drawableBins, durableTimes, niceBinNs, slotGrid } from './destage';
import type { DestageDone, DestageIssue } from './stream';

const PAGE = 16384;

/** Pages issued at times ts to slots, with payloads; stream positions follow one another. */
function issues(ts: number[], slots: number[], payloads: number[] = []): DestageIssue[] {
  let pos = 0;
  return ts.map((t, i) => {
    const payload = payloads[i] ?? PAGE;
    const d = { t, die: 0, slot: slots[i]!, pos, payload, page: PAGE };
    pos += payload;
    return d;
  });
}
/** The durable position advanced to pos at time t. */
const done = (t: number, pos: number, slot = 0): DestageDone => ({ t, slot, pos, ns: 0, retries: 0 });

describe('durableTimes', () => {
  it('gives each page the first advance of the durable position past its end', () => {
    const is = issues([10, 20, 30], [0, 1, 2]);
    // Pages 0 and 1 finish together (one record), page 2 not yet.
    expect(durableTimes(is, [done(50, 2 * PAGE, 1)])).toEqual([50, 50, -1]);
    expect(durableTimes(is, [done(40, PAGE), done(60, 3 * PAGE)])).toEqual([40, 60, 60]);
  });
  it('ignores an advance recorded before the page was issued', () => {
    const is = issues([10, 100], [0, 1], [PAGE, 100]);
    expect(durableTimes(is, [done(50, PAGE + 100)])).toEqual([50, -1]);
  });
});

describe('slotGrid', () => {
  it('marks the slots written, filler pages, durability and the head', () => {
    const is = issues([10, 20, 30], [0, 1, 2], [PAGE, 4000, PAGE]);
    const g = slotGrid(is, [done(15, PAGE), done(40, PAGE + 4000)], 8);
    expect(g.cells).toHaveLength(8);
    expect(g.cells.map((c) => c.writes)).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    expect(g.cells[1]!.fillerWrites).toBe(1);
    expect(g.cells[1]!.lastPayload).toBe(4000);
    expect(g.cells.map((c) => c.durable)).toEqual([true, true, false, false, false, false, false, false]);
    expect(g.head).toBe(3);
    expect(g.wraps).toBe(0);
  });
  it('counts wrap-arounds and rewrites, and a rewrite is not durable until the position passes it', () => {
    const is = issues([0, 10, 20, 30, 40, 50], [0, 1, 2, 3, 0, 1]);
    const g = slotGrid(is, [done(35, 4 * PAGE), done(45, 5 * PAGE)], 4);
    expect(g.wraps).toBe(1);
    expect(g.cells.map((c) => c.writes)).toEqual([2, 2, 1, 1]);
    expect(g.cells[0]!.durable).toBe(true); // rewritten at 40, durable at 45
    expect(g.cells[1]!.durable).toBe(false); // rewritten at 50, not yet
    expect(g.head).toBe(2);
  });
  it('groups slots into cells on a large ring', () => {
    const g = slotGrid(issues([1, 2], [0, 5000]), [], 10_000, 100);
    expect(g.slotsPerCell).toBe(100);
    expect(g.cells).toHaveLength(100);
    expect(g.cells[50]!.writes).toBe(1);
    expect(g.cells[99]!.slots).toBe(100);
  });
});

describe('destageThroughput', () => {
  it('counts payload and filler when the page becomes durable', () => {
    const is = issues([10, 20], [0, 1], [PAGE, 4000]);
    const bins = destageThroughput(is, [done(120, PAGE), done(250, PAGE + 4000)], 100, 300);
    expect(bins).toHaveLength(3);
    expect(bins.map((b) => b.payload)).toEqual([0, PAGE, 4000]);
    expect(bins.map((b) => b.filler)).toEqual([0, 0, PAGE - 4000]);
  });
  it('ends the last bin at the end time', () => {
    const bins = destageThroughput([], [], 100, 250);
    expect(bins.at(-1)).toEqual({ t0: 200, t1: 250, payload: 0, filler: 0 });
  });
});

describe('niceBinNs', () => {
  it('rounds to 1, 2 or 5 times a power of ten', () => {
    expect(niceBinNs(10_000_000, 50)).toBe(200_000);
    expect(niceBinNs(7_300_000, 50)).toBe(200_000);
    expect(niceBinNs(60_000_000, 50)).toBe(2_000_000);
    expect(niceBinNs(0)).toBe(1);
  });
});

describe('drawableBins', () => {
  it('drops a last bin cut short by the end time', () => {
    expect(drawableBins(destageThroughput([], [], 100, 230))).toHaveLength(2);
    expect(drawableBins(destageThroughput([], [], 100, 290))).toHaveLength(2);
    expect(drawableBins(destageThroughput([], [], 100, 300))).toHaveLength(3);
    expect(drawableBins(destageThroughput([], [], 100, 30))).toHaveLength(1);
  });
});
