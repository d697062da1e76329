// Response-time CDFs per workload (the instrumented-SSD paper compares the
// log's and the checkpoint's distributions across workloads). A curve is one
// flow of one run, latency normalised to tPROG; curves of earlier runs can be
// kept for the session to overlay on the current one.
import type { RequestRow } from './analysis';
import { normalise } from './analysis';

/** One distribution: x = latency ÷ tPROG, y = share of the flow's requests at most that slow. */
export interface CdfCurve {
  /** Scenario title and flow name. */
  label: string;
  flow: number;
  count: number;
  points: [number, number][];
  p50: number;
  p99: number;
}

/** Value at quantile q (0..1) of ascending-sorted values (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

/**
 * One curve per flow that has requests: the sorted normalised latencies,
 * thinned to at most maxPoints steps (the first, the last and evenly spaced
 * ranks between, so the tail keeps its shape at the top).
 */
export function flowCurves(
  rows: readonly RequestRow[],
  flowNames: readonly string[],
  baselineNs: number,
  runLabel: string,
  maxPoints = 400,
): CdfCurve[] {
  const byFlow = flowNames.map(() => [] as number[]);
  for (const r of rows) if (r.flow >= 0 && r.flow < byFlow.length) byFlow[r.flow]!.push(normalise(r.latencyNs, baselineNs));
  const out: CdfCurve[] = [];
  byFlow.forEach((values, flow) => {
    if (values.length === 0) return;
    values.sort((a, b) => a - b);
    const n = values.length;
    const step = Math.max(1, Math.ceil(n / maxPoints));
    const points: [number, number][] = [];
    for (let i = 0; i < n; i += step) points.push([values[i]!, (i + 1) / n]);
    if (points[points.length - 1]![1] !== 1) points.push([values[n - 1]!, 1]);
    out.push({
      label: runLabel ? `${runLabel} · ${flowNames[flow]}` : flowNames[flow]!,
      flow,
      count: n,
      points,
      p50: quantile(values, 0.5),
      p99: quantile(values, 0.99),
    });
  });
  return out;
}

// Kept curves live for the session, across scenarios (the panel remounts per device).
const MAX_KEPT = 8;
let kept: readonly CdfCurve[] = [];
const listeners = new Set<() => void>();

/** Adds curves to the kept set (replacing ones with the same label), oldest dropped past eight. */
export function keepCurves(curves: readonly CdfCurve[]): void {
  const labels = new Set(curves.map((c) => c.label));
  kept = [...kept.filter((c) => !labels.has(c.label)), ...curves].slice(-MAX_KEPT);
  listeners.forEach((l) => l());
}

export function clearKept(): void {
  kept = [];
  listeners.forEach((l) => l());
}

/** The kept curves (a stable reference until they change). */
export function keptCurves(): readonly CdfCurve[] {
  return kept;
}

/** Subscribes to changes of the kept curves; returns the unsubscribe function. */
export function subscribeKept(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
