// The CMB ring and the credit counter: where the destage head, the counter and
// the host tail stand, and what the host believed about its credits.
// Pure: unit-tested.
import type { CreditRead } from './stream';

/**
 * Credits the host had after a counter read: the intake queue minus the bytes
 * it had written that the counter did not yet cover (never below 0; an
 * over-eager host that wrote past its credits has none).
 */
export function hostCredits(queueBytes: number, read: number, written: number): number {
  return Math.max(0, queueBytes - Math.max(0, written - read));
}

/** One ring position: the stream byte, and where it falls on the ring (0..1 of a turn). */
export interface RingMark {
  pos: number;
  turn: number;
}

export interface RingState {
  ringBytes: number;
  /** Destage head: stream bytes durable on flash. */
  durable: RingMark;
  /** Credit counter: stream bytes persisted contiguously in the ring. */
  counter: RingMark;
  /** Host tail: stream bytes the host has written. */
  tail: RingMark;
  /** Persisted in the ring, not yet on flash (counter − durable). */
  backlog: number;
  /** Written by the host, not yet covered by the counter (tail − counter). */
  inFlight: number;
  /** Ring bytes free for new data. */
  free: number;
}

/**
 * The ring's three positions from the stream counts. The ring holds stream
 * bytes [durable, tail); positions are taken modulo the ring size. Counts out
 * of order (a counter ahead of the tail, say, between two samples) are clamped
 * so that durable ≤ counter ≤ tail.
 */
export function ringState(ringBytes: number, durable: number, counter: number, tail: number): RingState {
  const size = Math.max(1, ringBytes);
  const t = Math.max(0, tail);
  const c = Math.min(Math.max(0, counter), t);
  const d = Math.min(Math.max(0, durable), c);
  const mark = (pos: number): RingMark => ({ pos, turn: (pos % size) / size });
  return {
    ringBytes: size,
    durable: mark(d),
    counter: mark(c),
    tail: mark(t),
    backlog: c - d,
    inFlight: t - c,
    free: Math.max(0, size - (t - d)),
  };
}

export type ArcKind = 'backlog' | 'inflight';

/** A coloured stretch of the ring, in turns (0..1, clockwise from the top). */
export interface RingArc {
  kind: ArcKind;
  start: number;
  end: number;
}

/**
 * The ring's occupied stretches as arcs: durable → counter (persisted, awaiting
 * destage) and counter → tail (in flight). A stretch that crosses the top is
 * split in two; one longer than the ring is drawn as a full turn.
 */
export function ringArcs(s: RingState): RingArc[] {
  const out: RingArc[] = [];
  const add = (kind: ArcKind, from: RingMark, bytes: number) => {
    if (bytes <= 0) return;
    const len = Math.min(1, bytes / s.ringBytes);
    const start = from.turn;
    const end = start + len;
    if (end <= 1) out.push({ kind, start, end });
    else {
      out.push({ kind, start, end: 1 });
      out.push({ kind, start: 0, end: end - 1 });
    }
  };
  add('backlog', s.durable, s.backlog);
  add('inflight', s.counter, s.inFlight);
  return out;
}

/** A credit read as drawn: when, the value read, and the credits it implied. */
export interface CreditPoint {
  t: number;
  read: number;
  written: number;
  credits: number;
}

/** The host's credit reads with the credits each implied, thinned to at most maxPoints (evenly by index). */
export function creditPoints(reads: readonly CreditRead[], queueBytes: number, maxPoints = 1500): CreditPoint[] {
  const step = Math.max(1, Math.ceil(reads.length / Math.max(1, maxPoints)));
  const out: CreditPoint[] = [];
  for (let i = 0; i < reads.length; i += step) {
    const r = reads[i]!;
    out.push({ t: r.t, read: r.read, written: r.written, credits: hostCredits(queueBytes, r.read, r.written) });
  }
  // Always keep the newest read: it is what the host believes now.
  const last = reads[reads.length - 1];
  if (last && out[out.length - 1]?.t !== last.t) {
    out.push({ t: last.t, read: last.read, written: last.written, credits: hostCredits(queueBytes, last.read, last.written) });
  }
  return out;
}

/**
 * Thins a time-ordered series to about maxPoints, keeping per bucket the first
 * point and the points with the smallest and largest value, so steps and spikes
 * survive. The last point is always kept.
 */
export function thinSeries<T extends { t: number }>(points: readonly T[], value: (p: T) => number, maxPoints = 1200): T[] {
  if (points.length <= maxPoints) return points.slice();
  const buckets = Math.max(1, Math.floor(maxPoints / 3));
  const size = Math.ceil(points.length / buckets);
  const out: T[] = [];
  for (let b = 0; b < points.length; b += size) {
    const end = Math.min(points.length, b + size);
    let lo = b;
    let hi = b;
    for (let i = b + 1; i < end; i++) {
      if (value(points[i]!) < value(points[lo]!)) lo = i;
      if (value(points[i]!) > value(points[hi]!)) hi = i;
    }
    for (const i of [...new Set([b, lo, hi])].sort((x, y) => x - y)) out.push(points[i]!);
  }
  const last = points[points.length - 1]!;
  if (out[out.length - 1] !== last) out.push(last);
  return out;
}
