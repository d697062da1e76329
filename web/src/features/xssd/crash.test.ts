import { describe, expect, it } from 'vitest';
import { CRASH_STEPS, crashEpisodes, groupMarks, labelRows, streamLayout, streamMarks } from './crash';
import type { CrashRecord } from './stream';

const rec = (t: number, step: number, pos = 0, bytes = 0): CrashRecord => ({ t, step, pos, bytes });

describe('crashEpisodes', () => {
  it('collects the five steps of one power loss in protocol order', () => {
    const eps = crashEpisodes([rec(7, 0, 100), rec(7, 1, 100, 64), rec(7, 2, 100), rec(18, 3, 100, 36), rec(18, 4, 100)]);
    expect(eps).toHaveLength(1);
    expect(eps[0]!.complete).toBe(true);
    expect(eps[0]!.outOfOrder).toBe(false);
    expect(eps[0]!.steps.map((s) => s!.step)).toEqual([0, 1, 2, 3, 4]);
    expect(eps[0]!.atNs).toBe(7);
    expect(CRASH_STEPS).toHaveLength(5);
  });
  it('leaves the steps not reached yet empty (rebooting)', () => {
    const [e] = crashEpisodes([rec(7, 0), rec(7, 1), rec(7, 2)]);
    expect(e!.complete).toBe(false);
    expect(e!.steps.map((s) => s?.step ?? null)).toEqual([0, 1, 2, null, null]);
  });
  it('starts a new episode at each power loss', () => {
    const eps = crashEpisodes([rec(1, 0), rec(1, 1), rec(1, 2), rec(2, 3), rec(2, 4), rec(5, 0), rec(5, 1)]);
    expect(eps.map((e) => [e.atNs, e.complete])).toEqual([
      [1, true],
      [5, false],
    ]);
  });
  it('flags a skipped or repeated step', () => {
    expect(crashEpisodes([rec(1, 0), rec(1, 2)])[0]!.outOfOrder).toBe(true);
    const eps = crashEpisodes([rec(1, 0), rec(1, 1), rec(1, 1)]);
    expect(eps).toHaveLength(2);
    expect(eps[1]!.outOfOrder).toBe(true);
  });
});

describe('streamMarks', () => {
  it('prefers the metrics and falls back to the steps', () => {
    const [e] = crashEpisodes([rec(1, 0, 90), rec(1, 1, 95), rec(1, 2, 96), rec(2, 3, 96), rec(2, 4, 97)]);
    const marks = streamMarks(null, e!);
    expect(marks.map((m) => [m.key, m.pos])).toEqual([
      ['counter', 90],
      ['destaged', 95],
      ['gap', 96],
      ['durable', 96],
      ['tail', 97],
    ]);
    const withMetrics = streamMarks(
      {
        atNs: 1,
        hostAcknowledged: 80,
        counterAtLoss: 91,
        queuedLost: 0,
        beyondGap: 0,
        destagedOnCapacitors: 0,
        capacitorNs: 0,
        durableAfterReboot: 99,
        extraTail: 19,
        lostAcknowledged: 0,
      },
      e!,
    );
    expect(withMetrics.find((m) => m.key === 'acknowledged')!.pos).toBe(80);
    expect(withMetrics.find((m) => m.key === 'counter')!.pos).toBe(91);
    expect(withMetrics.find((m) => m.key === 'durable')!.pos).toBe(99);
  });
});

describe('labelRows', () => {
  it('puts overlapping labels on separate rows and reuses rows when there is room', () => {
    expect(labelRows([0, 10, 200, 20, 400], [100, 100, 100, 100, 100], 0)).toEqual([0, 1, 0, 2, 0]);
    expect(labelRows([0, 150], [100, 250], 8)).toEqual([0, 1]); // the wide one reaches back to 25
    expect(labelRows([], [])).toEqual([]);
  });
});

describe('groupMarks', () => {
  it('joins marks at the same position, in stream order', () => {
    const g = groupMarks([
      { key: 'gap', label: 'first gap', pos: 20 },
      { key: 'acknowledged', label: 'acknowledged', pos: 10 },
      { key: 'tail', label: 'visible tail', pos: 20 },
    ]);
    expect(g).toEqual([
      { pos: 10, keys: ['acknowledged'], label: 'acknowledged' },
      { pos: 20, keys: ['gap', 'tail'], label: 'first gap = visible tail' },
    ]);
  });
});

describe('streamLayout', () => {
  it('shades what was acknowledged, recovered beyond it, and dropped beyond the gap', () => {
    const [e] = crashEpisodes([rec(1, 0, 1000, 0), rec(1, 1, 1200, 200), rec(1, 2, 1200, 300), rec(2, 3, 1200, 1), rec(2, 4, 1200, 200)]);
    const l = streamLayout(null, e!, 4096);
    expect(l.zones).toEqual([
      { key: 'ack', from: 0, to: 1000 },
      { key: 'extra', from: 1000, to: 1200 },
      { key: 'dropped', from: 1200, to: 1500 },
    ]);
    expect(l.domain[0]).toBe(0);
    expect(l.domain[1]).toBeGreaterThanOrEqual(1500 + 2048);
  });
  it('keeps a visible domain when every position is the same', () => {
    const [e] = crashEpisodes([rec(1, 0, 589824), rec(1, 1, 589824), rec(1, 2, 589824), rec(2, 3, 589824), rec(2, 4, 589824)]);
    const l = streamLayout(null, e!, 32768);
    expect(l.domain).toEqual([589824 - 16384, 589824 + 16384]);
    expect(l.zones.map((z) => z.key)).toEqual(['ack']);
  });
  it('is empty without a crash', () => {
    expect(streamLayout(null, null, 1)).toEqual({ marks: [], zones: [], domain: [0, 1] });
  });
});
