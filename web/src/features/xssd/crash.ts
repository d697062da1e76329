// The fast side's crash protocol: its steps from the xssd_crash records,
// grouped per power loss, and the stream positions worth marking.
// Pure: unit-tested.
import type { CrashMetrics } from './metrics';
import type { CrashRecord } from './stream';

/** The protocol's steps in order (XssdCrashStep), with what a and b mean. */
export const CRASH_STEPS = [
  { name: 'power loss', a: 'counter the host saw', b: 'lost in the queue' },
  { name: 'destage ring on capacitors', a: 'destaged up to', b: 'on capacitor power' },
  { name: 'stop at first gap', a: 'first gap at', b: 'dropped beyond it' },
  { name: 'reboot', a: 'durable end found', b: 'ring pages checked' },
  { name: 'tail visible', a: 'readable tail to', b: 'beyond acknowledged' },
] as const;

/** One power loss and the steps recorded for it (a step not reached yet is null). */
export interface CrashEpisode {
  /** Time of the power loss (or of the first step seen). */
  atNs: number;
  steps: (CrashRecord | null)[];
  /** Every step is there. */
  complete: boolean;
  /** Steps seen out of protocol order (time going back, or a step twice). */
  outOfOrder: boolean;
}

/**
 * Groups crash records into episodes: a new one starts at each power-loss step,
 * or when a step does not follow the previous one. Records are taken in the
 * order given (time order, ties by step).
 */
export function crashEpisodes(records: readonly CrashRecord[]): CrashEpisode[] {
  const out: CrashEpisode[] = [];
  let cur: CrashEpisode | null = null;
  let lastStep = -1;
  let lastT = -1;
  for (const r of records) {
    if (r.step >= CRASH_STEPS.length) continue;
    if (!cur || r.step === 0 || r.step <= lastStep) {
      cur = { atNs: r.t, steps: CRASH_STEPS.map(() => null), complete: false, outOfOrder: false };
      out.push(cur);
      if (r.step !== 0) cur.outOfOrder = true;
    } else if (r.step !== lastStep + 1 || r.t < lastT) {
      cur.outOfOrder = true;
    }
    cur.steps[r.step] = r;
    cur.complete = cur.steps.every((s) => s !== null);
    lastStep = r.step;
    lastT = r.t;
  }
  return out;
}

/** A labelled position on the stream bar. */
export interface StreamMark {
  key: 'acknowledged' | 'counter' | 'destaged' | 'gap' | 'durable' | 'tail';
  label: string;
  pos: number;
}

/** Positions to mark on the stream around a crash, from the metrics and the episode's steps. */
export function streamMarks(m: CrashMetrics | null, e: CrashEpisode | null): StreamMark[] {
  const out: StreamMark[] = [];
  const add = (key: StreamMark['key'], label: string, pos: number | undefined) => {
    if (pos !== undefined && Number.isFinite(pos)) out.push({ key, label, pos });
  };
  add('acknowledged', 'acknowledged', m?.hostAcknowledged);
  add('counter', 'counter at loss', m?.counterAtLoss ?? e?.steps[0]?.pos);
  add('destaged', 'destaged on capacitors', e?.steps[1]?.pos);
  add('gap', 'first gap', e?.steps[2]?.pos);
  add('durable', 'durable after reboot', m?.durableAfterReboot ?? e?.steps[3]?.pos);
  add('tail', 'visible tail', e?.steps[4]?.pos);
  return out;
}

export type ZoneKey = 'ack' | 'extra' | 'lost' | 'dropped';

/** A stretch of the stream: acknowledged, the extra tail, lost in the queue, dropped beyond the gap. */
export interface StreamZone {
  key: ZoneKey;
  from: number;
  to: number;
}

export interface StreamLayout {
  marks: StreamMark[];
  /** Non-empty stretches only. */
  zones: StreamZone[];
  /** Stream bytes shown: the marks with some context either side. */
  domain: [number, number];
}

/**
 * What the stream bar shows around a crash: the marks, the stretches between
 * them, and a domain wide enough for both plus context (at least half the
 * intake queue either side, so equal positions do not collapse the bar).
 */
export function streamLayout(m: CrashMetrics | null, e: CrashEpisode | null, queueBytes: number): StreamLayout {
  const marks = streamMarks(m, e);
  if (marks.length === 0) return { marks, zones: [], domain: [0, 1] };
  const counter = m?.counterAtLoss ?? e?.steps[0]?.pos;
  const lost = m?.queuedLost ?? e?.steps[0]?.bytes ?? 0;
  const gap = e?.steps[2]?.pos;
  const dropped = m?.beyondGap ?? e?.steps[2]?.bytes ?? 0;
  const durable = m?.durableAfterReboot ?? e?.steps[3]?.pos;
  const ps = marks.map((k) => k.pos);
  if (counter !== undefined) ps.push(counter + lost);
  if (gap !== undefined) ps.push(gap + dropped);
  const lo = Math.min(...ps);
  const hi = Math.max(...ps);
  const pad = Math.max((hi - lo) * 0.25, queueBytes / 2, 1024);
  const domain: [number, number] = [Math.max(0, lo - pad), hi + pad];
  const ack = m?.hostAcknowledged ?? counter ?? domain[0];
  const zones: StreamZone[] = [{ key: 'ack', from: domain[0], to: ack }];
  if (durable !== undefined) zones.push({ key: 'extra', from: ack, to: durable });
  if (counter !== undefined) zones.push({ key: 'lost', from: counter, to: counter + lost });
  if (gap !== undefined) zones.push({ key: 'dropped', from: gap, to: gap + dropped });
  return { marks, zones: zones.filter((z) => z.to > z.from), domain };
}

/** Marks at the same stream position, shown as one label ("first gap = visible tail"). */
export interface MarkGroup {
  pos: number;
  keys: StreamMark['key'][];
  label: string;
}

/** Groups marks with equal positions, in order of position. */
export function groupMarks(marks: readonly StreamMark[]): MarkGroup[] {
  const out: MarkGroup[] = [];
  for (const m of [...marks].sort((p, q) => p.pos - q.pos)) {
    const last = out[out.length - 1];
    if (last && last.pos === m.pos) {
      last.keys.push(m.key);
      last.label += ` = ${m.label}`;
    } else out.push({ pos: m.pos, keys: [m.key], label: m.label });
  }
  return out;
}

/**
 * Rows for centred labels at x positions (px) with widths (px), so that labels
 * on one row keep at least pad apart: greedy, left to right, first row that
 * fits. Returns each label's row, in the input order.
 */
export function labelRows(xs: readonly number[], widths: readonly number[], pad = 8): number[] {
  const order = xs.map((x, i) => ({ l: x - (widths[i] ?? 0) / 2, r: x + (widths[i] ?? 0) / 2, i })).sort((p, q) => p.l - q.l);
  const rowEnds: number[] = [];
  const rows = new Array<number>(xs.length).fill(0);
  for (const { l, r, i } of order) {
    let row = rowEnds.findIndex((end) => l - end >= pad);
    if (row < 0) {
      row = rowEnds.length;
      rowEnds.push(r);
    } else rowEnds[row] = r;
    rows[i] = row;
  }
  return rows;
}
