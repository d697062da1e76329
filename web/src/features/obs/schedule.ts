// The channel/way schedule around one slow request (the "schedule" of each of
// the analysis JSON's "slowest" entries), shaped for the Gantt view: one lane
// per die, one row per plane, and what occupied each die while the request
// waited. Pure: unit-tested in Node.
import { num, numOrNull, obj } from './json';

export type SegRole = 'other' | 'own' | 'freed';

export interface ScheduleSeg {
  startNs: number;
  endNs: number;
  /** Flash op kind (read, program, erase, copyback) and purpose (host_read, flush, gc_write, ...). */
  kind: string;
  purpose: string;
  /** Plane within the die. */
  plane: number;
  /** Ops in the bar (several when merged). */
  count: number;
  role: SegRole;
  /** Merged with ops of other kinds or purposes: kind/purpose are what took most of its time. */
  mixed: boolean;
}

export interface ScheduleLane {
  die: number;
  channel: number;
  way: number;
  segments: ScheduleSeg[];
}

export interface ScheduleGc {
  plane: number;
  die: number;
  victim: number;
  startNs: number;
  /** null: still running when the records end. */
  endNs: number | null;
  validPages: number;
  copies: number | null;
}

export interface RequestSchedule {
  id: number;
  op: string;
  /** When the request started waiting for flash (translated) and when its last slice was ready. */
  fromNs: number;
  toNs: number;
  /** Dies that qualified; lanes may show fewer. */
  diesTotal: number;
  lanes: ScheduleLane[];
  gc: ScheduleGc[];
}

const ROLES: SegRole[] = ['other', 'own', 'freed'];

function parseSchedule(id: number, op: string, v: unknown): RequestSchedule | null {
  const s = obj(v);
  if (!Array.isArray(s.lanes)) return null;
  const lanes: ScheduleLane[] = s.lanes.map((l) => {
    const lane = obj(l);
    const segments: ScheduleSeg[] = [];
    if (Array.isArray(lane.segments)) {
      for (const raw of lane.segments) {
        if (!Array.isArray(raw) || raw.length < 7) continue;
        segments.push({
          startNs: num(raw[0]),
          endNs: num(raw[1]),
          kind: String(raw[2]),
          purpose: String(raw[3]),
          plane: num(raw[4]),
          count: num(raw[5], 1),
          role: ROLES[num(raw[6])] ?? 'other',
          mixed: num(raw[7]) !== 0,
        });
      }
    }
    return { die: num(lane.die), channel: num(lane.channel), way: num(lane.way), segments };
  });
  // GC runs as rows: [plane, die, victim, start_ns, end_ns | null, valid_pages, copies | null].
  const gc: ScheduleGc[] = [];
  if (Array.isArray(s.gc)) {
    for (const g of s.gc) {
      if (!Array.isArray(g) || g.length < 7) continue;
      gc.push({
        plane: num(g[0]),
        die: num(g[1]),
        victim: num(g[2]),
        startNs: num(g[3]),
        endNs: numOrNull(g[4]),
        validPages: num(g[5]),
        copies: numOrNull(g[6]),
      });
    }
  }
  return { id, op, fromNs: num(s.from_ns), toNs: num(s.to_ns), diesTotal: num(s.dies_total, lanes.length), lanes, gc };
}

/** The schedules of the analysis JSON's slowest requests, by request id. */
export function parseSchedules(analysis: unknown): Map<number, RequestSchedule> {
  const out = new Map<number, RequestSchedule>();
  const slow = obj(analysis).slowest;
  if (!Array.isArray(slow)) return out;
  for (const entry of slow) {
    const e = obj(entry);
    const id = num(e.id, -1);
    if (id < 0 || e.schedule === undefined) continue;
    const s = parseSchedule(id, String(e.op ?? ''), e.schedule);
    if (s) out.set(id, s);
  }
  return out;
}

/** Colour groups of the Gantt, in legend order. */
export const PURPOSE_GROUPS = ['host_read', 'rmw_read', 'flush', 'gc_copy', 'gc_erase', 'checkpoint', 'other'] as const;
export type PurposeGroup = (typeof PURPOSE_GROUPS)[number];

/** The colour group of an op purpose: GC reads, programs and copybacks are one group (copying valid pages). */
export function purposeGroup(purpose: string): PurposeGroup {
  switch (purpose) {
    case 'host_read':
    case 'rmw_read':
    case 'flush':
    case 'gc_erase':
    case 'checkpoint':
      return purpose;
    case 'gc_read':
    case 'gc_write':
    case 'gc_copy':
      return 'gc_copy';
    default:
      return 'other';
  }
}

/**
 * The time range to draw: the wait, plus the start of whatever was already
 * running on its dies when it began (at most one wait-length earlier, so a
 * long erase does not squash the window), plus a small margin after.
 */
export function scheduleDomain(s: RequestSchedule): [number, number] {
  const span = Math.max(1, s.toNs - s.fromNs);
  let lo = s.fromNs;
  for (const l of s.lanes) for (const g of l.segments) lo = Math.min(lo, g.startNs);
  lo = Math.max(lo, s.fromNs - span);
  const pad = span * 0.04;
  return [lo - pad, s.toNs + pad];
}

/**
 * Die time inside the wait [fromNs, toNs] per colour group, summed over the
 * lanes; planes of one die busy at once (a multi-plane batch) count once.
 * Largest first; the view's caption ("GC copies 3.2 ms, flushes 1.1 ms").
 */
export function occupancy(s: RequestSchedule): { group: PurposeGroup; ns: number }[] {
  const totals = new Map<PurposeGroup, number>();
  for (const lane of s.lanes) {
    const byGroup = new Map<PurposeGroup, [number, number][]>();
    for (const g of lane.segments) {
      const a = Math.max(g.startNs, s.fromNs);
      const b = Math.min(g.endNs, s.toNs);
      if (b <= a) continue;
      const key = purposeGroup(g.purpose);
      let list = byGroup.get(key);
      if (!list) byGroup.set(key, (list = []));
      list.push([a, b]);
    }
    for (const [key, list] of byGroup) totals.set(key, (totals.get(key) ?? 0) + unionLength(list));
  }
  return [...totals].map(([group, ns]) => ({ group, ns })).sort((x, y) => y.ns - x.ns || PURPOSE_GROUPS.indexOf(x.group) - PURPOSE_GROUPS.indexOf(y.group));
}

/** Total length covered by a set of [start, end) intervals. */
export function unionLength(intervals: readonly [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let covered = -Infinity;
  for (const [a, b] of sorted) {
    const from = Math.max(a, covered);
    if (b > from) total += b - from;
    covered = Math.max(covered, b);
  }
  return total;
}

/** The lane holding the request's own op (a read slice that finished last, or the flush that freed its slot). */
export function keyLane(s: RequestSchedule): ScheduleLane | null {
  let best: ScheduleLane | null = null;
  let bestEnd = -Infinity;
  for (const l of s.lanes)
    for (const g of l.segments)
      if (g.role !== 'other' && g.endNs > bestEnd) {
        bestEnd = g.endNs;
        best = l;
      }
  return best;
}

/** "ch 2 · way 3": the paper's name for a die. */
export function laneLabel(l: Pick<ScheduleLane, 'channel' | 'way'>): string {
  return `ch ${l.channel} · way ${l.way}`;
}

/** What a request's stages say about why it has no schedule (the view's empty state). */
export function noScheduleReason(
  id: number,
  row: { isRead: boolean; bytes: number; stagesNs: readonly number[] } | undefined,
  bufferWaitIndex: number,
): string {
  if (!row) return `Request ${id} is not among the analysed requests: press Analyze records.`;
  if (row.isRead)
    return `Read ${id} never waited for a die: it was served from the DRAM buffer (or read pages never written).`;
  if (row.bytes === 0 || !((row.stagesNs[bufferWaitIndex] ?? 0) > 0))
    return (
      `Write ${id} found a free buffer slot at once, so it never waited for flash. Its data is programmed later, ` +
      'when the buffer flushes it, and that program is not traced back to the request.'
    );
  return `The analysis has no schedule for request ${id}: its records do not show which flush freed its slot.`;
}
