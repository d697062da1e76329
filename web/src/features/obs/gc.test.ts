import { describe, expect, it } from 'vitest';
import { hasGc, parseGc, splitMean } from './gc';

// The shape SummaryToJson writes (core/src/obs/analysis.cc), trimmed.
const analysis = {
  records: { count: 100, first_ns: 0, last_ns: 250, span_ns: 250 },
  gc: {
    started: 3,
    complete: 2,
    open_at_end: 1,
    end_without_start: 0,
    end_lost: 1,
    interrupted: 0,
    erase_only: { runs: 1, total_ns: 30, mean_ns: 30, max_ns: 30, copies: 0 },
    copy_then_erase: { runs: 1, total_ns: 90, mean_ns: 90, max_ns: 90, copies: 12 },
    no_erase: { runs: 0, total_ns: 0, mean_ns: 0, max_ns: 0, copies: 0 },
    page_copies: 12,
    copies_histogram: [
      [0, 1],
      [12, 1],
    ],
    erases: 2,
    erase_failures: 0,
    erase_baseline_ns: 25,
    ns_per_copy: 5.4,
    by_plane: [
      [0, 1, 30, 0, 0, 0],
      [3, 0, 0, 1, 90, 12],
      [9, 1],
    ],
    over_time: {
      first_ns: 0,
      bin_ns: 100,
      erase_only_ns: [30, 0, 0],
      copy_then_erase_ns: [50, 100, 25],
      erase_only_runs: [1, 0, 0],
      copy_then_erase_runs: [1, 1, 0],
    },
  },
};

describe('parseGc', () => {
  it('reads classes, planes and bins, and skips malformed plane rows', () => {
    const g = parseGc(analysis)!;
    expect(g.started).toBe(3);
    expect(g.openAtEnd).toBe(1);
    expect(g.incomplete).toBe(1);
    expect(g.eraseOnly).toEqual({ runs: 1, totalNs: 30, meanNs: 30, maxNs: 30, copies: 0 });
    expect(g.copyThenErase.copies).toBe(12);
    expect(g.byPlane).toEqual([
      { plane: 0, eraseOnlyRuns: 1, eraseOnlyNs: 30, copyRuns: 0, copyNs: 0, copies: 0 },
      { plane: 3, eraseOnlyRuns: 0, eraseOnlyNs: 0, copyRuns: 1, copyNs: 90, copies: 12 },
    ]);
  });
  it('turns plane-time per bin into average planes, the last bin cut at the last record', () => {
    const bins = parseGc(analysis)!.overTime;
    expect(bins).toHaveLength(3);
    expect(bins[0]).toMatchObject({ t0: 0, t1: 100, eraseOnlyPlanes: 0.3, copyPlanes: 0.5, eraseOnlyRuns: 1, copyRuns: 1 });
    expect(bins[1]!.copyPlanes).toBe(1);
    // [200, 250): 25 ns of plane-time in 50 ns is half a plane, not a quarter.
    expect(bins[2]).toMatchObject({ t0: 200, t1: 250, copyPlanes: 0.5 });
  });
  it('tolerates a missing or empty gc object', () => {
    expect(parseGc({})).toBeNull();
    expect(parseGc(null)).toBeNull();
    const g = parseGc({ gc: {} })!;
    expect(g.overTime).toEqual([]);
    expect(g.byPlane).toEqual([]);
    expect(hasGc(g)).toBe(false);
    expect(hasGc(parseGc(analysis))).toBe(true);
  });
  it('derives total time when an older summary lacks total_ns', () => {
    const g = parseGc({ gc: { erase_only: { runs: 4, mean_ns: 10 } } })!;
    expect(g.eraseOnly.totalNs).toBe(40);
  });
});

describe('splitMean', () => {
  it('splits the mean run into the erase and the time before it', () => {
    expect(splitMean({ runs: 2, totalNs: 180, meanNs: 90, maxNs: 100, copies: 8 }, 25)).toEqual({ eraseNs: 25, restNs: 65 });
    // A run shorter than the baseline is all erase.
    expect(splitMean({ runs: 1, totalNs: 20, meanNs: 20, maxNs: 20, copies: 0 }, 25)).toEqual({ eraseNs: 20, restNs: 0 });
  });
});
