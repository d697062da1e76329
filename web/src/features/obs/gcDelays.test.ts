import { describe, expect, it } from 'vitest';
import { jitter, latencyRange, logTicks, parseGcDelays, validDomain, type GcDelayRow } from './gcDelays';

const analysis = {
  gc_delays: {
    waited: 10,
    delayed: 3,
    by_valid_pages: [
      [64, 2],
      [0, 1],
      [7, 0],
    ],
    columns: ['id', 'flow', 'read', 'latency_ns', 'wait_ns', 'gc_busy_ns', 'plane', 'victim', 'valid_pages', 'copies'],
    rows: [
      [41, 1, 0, 9000, 8000, 5000, 6, 800, 64, -1],
      [40, 0, 1, 3000, 2500, 1000, 2, 300, 64, 60],
      [12, 0, 0, 900, 700, 100, 4, 512, 0, 0],
      [1, 2, 3],
    ],
  },
};

describe('parseGcDelays', () => {
  it('reads the rows by column name and sorts the histogram', () => {
    const d = parseGcDelays(analysis)!;
    expect(d.waited).toBe(10);
    expect(d.delayed).toBe(3);
    expect(d.byValid).toEqual([
      { valid: 0, requests: 1 },
      { valid: 64, requests: 2 },
    ]);
    expect(d.rows).toHaveLength(3); // the short row is dropped
    expect(d.rows[0]).toEqual({
      id: 41,
      flow: 1,
      isRead: false,
      latencyNs: 9000,
      waitNs: 8000,
      gcBusyNs: 5000,
      plane: 6,
      victim: 800,
      validPages: 64,
      copies: null, // -1: the run had not ended
    });
    expect(d.rows[1]!.isRead).toBe(true);
    expect(d.rows[1]!.copies).toBe(60);
  });
  it('follows reordered columns', () => {
    const d = parseGcDelays({
      gc_delays: {
        columns: ['copies', 'valid_pages', 'victim', 'plane', 'gc_busy_ns', 'wait_ns', 'latency_ns', 'read', 'flow', 'id'],
        rows: [[5, 9, 100, 1, 10, 20, 30, 0, 2, 77]],
      },
    })!;
    expect(d.rows[0]).toMatchObject({ id: 77, flow: 2, validPages: 9, copies: 5, latencyNs: 30 });
  });
  it('is null without gc_delays', () => {
    expect(parseGcDelays({})).toBeNull();
    expect(parseGcDelays(undefined)).toBeNull();
  });
});

describe('jitter', () => {
  it('is fixed per id, within ±0.35 and spread out', () => {
    const xs = Array.from({ length: 200 }, (_, i) => jitter(i));
    expect(jitter(17)).toBe(jitter(17));
    for (const x of xs) expect(Math.abs(x)).toBeLessThanOrEqual(0.35);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(0.5);
    expect(new Set(xs).size).toBeGreaterThan(150);
  });
});

describe('axis ranges', () => {
  const row = (latencyNs: number, validPages = 3): GcDelayRow => ({
    id: 1,
    flow: 0,
    isRead: false,
    latencyNs,
    waitNs: 0,
    gcBusyNs: 0,
    plane: 0,
    victim: 0,
    validPages,
    copies: null,
  });
  it('spans 0 to the block size, or further for a larger count', () => {
    const d = parseGcDelays(analysis)!;
    expect(validDomain(d, 128)).toEqual([0, 128]);
    expect(validDomain(d, 32)).toEqual([0, 64]);
  });
  it('switches to a log scale when latencies spread over more than 20×', () => {
    expect(latencyRange([row(1000), row(5000)], 1000)).toEqual({ lo: 0, hi: 5, log: false });
    expect(latencyRange([row(1000), row(90_000)], 1000)).toEqual({ lo: 1, hi: 90, log: true });
    expect(latencyRange([], 1000)).toEqual({ lo: 0, hi: 1, log: false });
    expect(latencyRange([row(100)], 0)).toEqual({ lo: 0, hi: 1, log: false });
  });
});

describe('logTicks', () => {
  it('gives 1-2-5 ticks, or only decades when there would be too many', () => {
    expect(logTicks(0.9, 12)).toEqual([1, 2, 5, 10]);
    expect(logTicks(0.15, 110)).toEqual([1, 10, 100]);
    expect(logTicks(0.15, 110, 20)).toEqual([0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]);
    expect(logTicks(0, 10)).toEqual([]);
  });
});
