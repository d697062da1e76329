import { describe, expect, it } from 'vitest';
import { keyLane, laneLabel, noScheduleReason, occupancy, parseSchedules, purposeGroup, scheduleDomain, unionLength } from './schedule';

// One slowest entry as SummaryToJson writes it: a write that waited 1000 ns,
// die 4 (channel 0, way 4) with a GC copyback on plane 1 and the freeing flush
// on plane 0; die 9 with a flush already under way when it began.
const analysis = {
  slowest: [
    {
      id: 416,
      op: 'write',
      schedule: {
        from_ns: 1000,
        to_ns: 2000,
        dies_total: 3,
        lanes: [
          {
            die: 4,
            channel: 0,
            way: 4,
            segments: [
              [1500, 2000, 'program', 'flush', 0, 1, 2, 0],
              [900, 1600, 'copyback', 'gc_copy', 1, 3, 0, 1],
              [1600, 1700, 'program', 'gc_write', 1, 1, 0, 0],
            ],
          },
          { die: 9, channel: 1, way: 1, segments: [[-5000, 1200, 'program', 'flush', 0, 1, 0, 0]] },
        ],
        gc: [
          [9, 4, 627, 800, null, 60, null],
          [8, 4, 5, 100, 900, 12, 12],
          [1, 2],
        ],
      },
    },
    { id: 7, op: 'write', explanation: 'no schedule' },
  ],
};

describe('parseSchedules', () => {
  it('reads lanes, segments (role, plane, merged flags) and GC runs by request id', () => {
    const m = parseSchedules(analysis);
    expect([...m.keys()]).toEqual([416]);
    const s = m.get(416)!;
    expect(s).toMatchObject({ id: 416, op: 'write', fromNs: 1000, toNs: 2000, diesTotal: 3 });
    expect(s.lanes.map((l) => l.die)).toEqual([4, 9]);
    expect(s.lanes[0]!.segments[0]).toEqual({
      startNs: 1500,
      endNs: 2000,
      kind: 'program',
      purpose: 'flush',
      plane: 0,
      count: 1,
      role: 'freed',
      mixed: false,
    });
    expect(s.lanes[0]!.segments[1]).toMatchObject({ plane: 1, count: 3, role: 'other', mixed: true });
    expect(s.gc).toEqual([
      { plane: 9, die: 4, victim: 627, startNs: 800, endNs: null, validPages: 60, copies: null },
      { plane: 8, die: 4, victim: 5, startNs: 100, endNs: 900, validPages: 12, copies: 12 },
    ]); // the short row is dropped
  });
  it('is empty without slowest entries', () => {
    expect(parseSchedules({}).size).toBe(0);
    expect(parseSchedules(null).size).toBe(0);
  });
});

describe('schedule shaping', () => {
  const s = parseSchedules(analysis).get(416)!;
  it('groups GC reads, programs and copybacks as copying', () => {
    expect(['gc_read', 'gc_write', 'gc_copy'].map(purposeGroup)).toEqual(['gc_copy', 'gc_copy', 'gc_copy']);
    expect(purposeGroup('gc_erase')).toBe('gc_erase');
    expect(purposeGroup('destage')).toBe('other');
  });
  it('draws the wait plus what was under way, at most one wait earlier', () => {
    const [d0, d1] = scheduleDomain(s);
    // The flush on die 9 started 6000 ns early: the view starts one wait (1000) early.
    expect(d0).toBeCloseTo(1000 - 1000 - 40);
    expect(d1).toBeCloseTo(2000 + 40);
  });
  it('counts die time within the wait per group, a multi-plane overlap once', () => {
    expect(occupancy(s)).toEqual([
      // die 4: flush 1500-2000; die 9: flush 1000-1200
      { group: 'flush', ns: 700 },
      // die 4: copyback 1000-1600 and gc_write 1600-1700 (plane 1)
      { group: 'gc_copy', ns: 700 },
    ]);
    expect(unionLength([[0, 10], [5, 20], [30, 31]])).toBe(21);
    expect(unionLength([])).toBe(0);
  });
  it('names the lane of the op the request waited for', () => {
    expect(keyLane(s)?.die).toBe(4);
    expect(laneLabel(s.lanes[1]!)).toBe('ch 1 · way 1');
  });
  it('explains why a request has no schedule', () => {
    const stages = (wait: number) => [1, 1, wait, 0, 1, 1];
    expect(noScheduleReason(3, undefined, 2)).toMatch(/not among the analysed/);
    expect(noScheduleReason(3, { isRead: true, bytes: 4096, stagesNs: stages(0) }, 2)).toMatch(/DRAM buffer/);
    expect(noScheduleReason(3, { isRead: false, bytes: 4096, stagesNs: stages(0) }, 2)).toMatch(/free buffer slot at once/);
    expect(noScheduleReason(3, { isRead: false, bytes: 4096, stagesNs: stages(50) }, 2)).toMatch(/no schedule/);
  });
});
