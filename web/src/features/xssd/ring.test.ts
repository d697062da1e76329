import { describe, expect, it } from 'vitest';
import { creditPoints, hostCredits, ringArcs, ringState, thinSeries } from './ring';

describe('hostCredits', () => {
  it('is the queue minus what the counter does not cover yet', () => {
    expect(hostCredits(32768, 16064, 16384)).toBe(32448);
    expect(hostCredits(4096, 4000, 4096)).toBe(4000); // the paper's example: 96 bytes in flight
    expect(hostCredits(32768, 16384, 16384)).toBe(32768);
  });
  it('never goes negative when the host wrote past its credits', () => {
    expect(hostCredits(4096, 0, 10_000)).toBe(0);
  });
});

describe('ringState and ringArcs', () => {
  it('places the three positions on the ring and splits the occupied stretches', () => {
    const s = ringState(1000, 900, 1100, 1150);
    expect(s.durable.turn).toBeCloseTo(0.9);
    expect(s.counter.turn).toBeCloseTo(0.1);
    expect(s.tail.turn).toBeCloseTo(0.15);
    expect(s.backlog).toBe(200);
    expect(s.inFlight).toBe(50);
    expect(s.free).toBe(750);
    const arcs = ringArcs(s);
    expect(arcs.map((a) => a.kind)).toEqual(['backlog', 'backlog', 'inflight']);
    expect(arcs[0]!.start).toBeCloseTo(0.9);
    expect(arcs[0]!.end).toBe(1);
    expect(arcs[1]!.start).toBe(0);
    expect(arcs[1]!.end).toBeCloseTo(0.1);
    expect(arcs[2]!.start).toBeCloseTo(0.1);
    expect(arcs[2]!.end).toBeCloseTo(0.15);
  });
  it('clamps samples out of order so durable ≤ counter ≤ tail', () => {
    const s = ringState(1000, 500, 400, 300);
    expect([s.durable.pos, s.counter.pos, s.tail.pos]).toEqual([300, 300, 300]);
    expect(ringArcs(s)).toEqual([]);
    expect(s.free).toBe(1000);
  });
  it('draws a backlog longer than the ring as one full turn', () => {
    const arcs = ringArcs(ringState(100, 0, 250, 250));
    expect(arcs).toEqual([{ kind: 'backlog', start: 0, end: 1 }]);
  });
});

describe('creditPoints', () => {
  const reads = Array.from({ length: 10 }, (_, i) => ({ t: i * 10, thread: 0, read: i * 100, written: i * 100 + 50 }));
  it('computes the credits for every read', () => {
    const pts = creditPoints(reads, 1000);
    expect(pts).toHaveLength(10);
    expect(pts[3]).toEqual({ t: 30, read: 300, written: 350, credits: 950 });
  });
  it('thins evenly and keeps the newest read', () => {
    const pts = creditPoints(reads, 1000, 4);
    expect(pts.map((p) => p.t)).toEqual([0, 30, 60, 90]);
    expect(creditPoints(reads, 1000, 3).at(-1)!.t).toBe(90);
  });
});

describe('thinSeries', () => {
  it('keeps the extremes of each bucket and the last point', () => {
    const pts = Array.from({ length: 1000 }, (_, i) => ({ t: i, v: i === 517 ? 99 : i === 733 ? -99 : 0 }));
    const out = thinSeries(pts, (p) => p.v, 60);
    expect(out.length).toBeLessThanOrEqual(61);
    expect(out.some((p) => p.v === 99)).toBe(true);
    expect(out.some((p) => p.v === -99)).toBe(true);
    expect(out.at(-1)!.t).toBe(999);
    expect(out.every((p, i) => i === 0 || p.t > out[i - 1]!.t)).toBe(true);
  });
  it('returns short series unchanged', () => {
    const pts = [{ t: 1 }, { t: 2 }];
    expect(thinSeries(pts, () => 0)).toEqual(pts);
  });
});
