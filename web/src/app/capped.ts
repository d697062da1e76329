// Bounded accumulation of the per-frame series points and timeline events.
// Pure: unit-tested in Node.
import type { TimelineEvent } from '../bridge/protocol';

export const SERIES_CAP = 5000;
export const TIMELINE_CAP = 5000;

/**
 * `list` plus `items`, keeping only the newest `cap`. Returns `list` itself
 * when there is nothing to add (so React sees no change), otherwise a new array.
 */
export function appendCapped<T>(list: T[], items: readonly T[], cap: number): T[] {
  if (items.length === 0) return list;
  const total = list.length + items.length;
  if (total <= cap) return list.concat(items);
  if (items.length >= cap) return items.slice(items.length - cap);
  return list.slice(total - cap).concat(items);
}

/** Events a reader of the timeline must not lose to the cap while others remain. */
export function isKeyEvent(e: TimelineEvent): boolean {
  return e.kind === 'power_fail' || e.kind === 'recovery_step' || e.kind === 'block_retired';
}

/**
 * Like appendCapped for timeline events, but when over the cap the oldest
 * routine events (GC, erases, checkpoints, wear leveling) go first: power
 * failures, recovery steps and retirements are dropped only if they alone
 * exceed the cap. Order is preserved.
 */
export function appendTimeline(list: TimelineEvent[], items: readonly TimelineEvent[], cap: number): TimelineEvent[] {
  if (items.length === 0) return list;
  const all = list.concat(items);
  let excess = all.length - cap;
  if (excess <= 0) return all;
  const routine = all.reduce((n, e) => n + (isKeyEvent(e) ? 0 : 1), 0);
  let dropRoutine = Math.min(excess, routine);
  excess -= dropRoutine;
  let dropKey = excess;
  const out: TimelineEvent[] = [];
  for (const e of all) {
    if (isKeyEvent(e)) {
      if (dropKey > 0) {
        dropKey--;
        continue;
      }
    } else if (dropRoutine > 0) {
      dropRoutine--;
      continue;
    }
    out.push(e);
  }
  return out;
}
