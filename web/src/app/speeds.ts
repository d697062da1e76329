// Playback speed: simulated time per wall-clock second, and the pacing rules of
// the run loop. Pure: unit-tested in Node.

export interface Speed {
  label: string;
  /** Simulated nanoseconds per wall-clock second; Infinity for "Max". */
  nsPerSecond: number;
}

export const SPEEDS: readonly Speed[] = [
  { label: '1 µs/s', nsPerSecond: 1e3 },
  { label: '10 µs/s', nsPerSecond: 1e4 },
  { label: '100 µs/s', nsPerSecond: 1e5 },
  { label: '1 ms/s', nsPerSecond: 1e6 },
  { label: '10 ms/s', nsPerSecond: 1e7 },
  { label: '100 ms/s', nsPerSecond: 1e8 },
  { label: '1 s/s', nsPerSecond: 1e9 },
  { label: 'Max', nsPerSecond: Infinity },
];

export const MAX_SPEED_INDEX = SPEEDS.length - 1;
/** 1 ms/s: a 1 ms program takes a second, so dies visibly change state. */
export const DEFAULT_SPEED_INDEX = 3;

export function clampSpeedIndex(i: number): number {
  return Math.max(0, Math.min(MAX_SPEED_INDEX, Math.round(i)));
}

/**
 * A speed at which a run of `spanNs` simulated time takes about `wallSeconds`
 * or longer: the fastest preset not faster than spanNs / wallSeconds (never
 * "Max", never below 1 µs/s). The default scenario (25 ms) gets 1 ms/s.
 */
export function suggestSpeedIndex(spanNs: number, wallSeconds = 20): number {
  if (!(spanNs > 0) || !Number.isFinite(spanNs)) return DEFAULT_SPEED_INDEX;
  const wanted = spanNs / wallSeconds;
  let best = 0;
  for (let i = 0; i < MAX_SPEED_INDEX; i++) if (SPEEDS[i]!.nsPerSecond <= wanted) best = i;
  return best;
}

/** Wall time that may count towards one advance (longer gaps: tab hidden, debugger). */
export const MAX_WALL_STEP_S = 0.25;

/** Simulated time to request for a wall-clock step at a finite speed. */
export function simStepNs(nsPerSecond: number, wallSeconds: number): number {
  const dt = Math.max(0, Math.min(MAX_WALL_STEP_S, wallSeconds));
  return Math.max(0, Math.round(nsPerSecond * dt));
}

/** First "Max" request, and its bounds. */
export const MAX_REQUEST_START_NS = 100_000;
export const MAX_REQUEST_MIN_NS = 10_000;
export const MAX_REQUEST_LIMIT_NS = 60e9;

/**
 * At "Max" the loop asks for as much simulated time as the worker can run in
 * its wall budget. The worker stops at the budget anyway; sizing the request
 * close to what it can do keeps each slice's work even (the worker slices a
 * request into eighths between clock checks). Grow while the worker reaches
 * the target, shrink towards what it managed when it ran out of time.
 */
export function nextMaxRequest(requestedNs: number, advancedNs: number, finished: boolean): number {
  if (finished) return requestedNs;
  let next: number;
  if (advancedNs >= requestedNs * 0.95) next = requestedNs * 2;
  else next = Math.max(advancedNs * 1.25, requestedNs / 2);
  return Math.min(MAX_REQUEST_LIMIT_NS, Math.max(MAX_REQUEST_MIN_NS, Math.round(next)));
}
