// Pure helpers for the analysis panel: decoding the worker's request rows,
// picking the slowest, and binning latencies normalised to the flash-program
// baseline (the paper's "response time / tPROG" distributions).
import { REQUEST_ROW, REQUEST_STAGES } from '../../bridge/protocol';

export interface RequestRow {
  id: number;
  flow: number;
  isRead: boolean;
  offsetBytes: number;
  bytes: number;
  submitNs: number;
  latencyNs: number;
  /** Name of the blamed stage, or null. */
  blamed: string | null;
  stagesNs: number[];
}

/** Decodes REQUEST_ROW-layout rows; a trailing partial row is ignored. */
export function decodeRows(rows: Float64Array): RequestRow[] {
  const w = REQUEST_ROW.width;
  const n = Math.floor(rows.length / w);
  const out: RequestRow[] = new Array<RequestRow>(n);
  for (let i = 0; i < n; i++) {
    const o = i * w;
    const b = rows[o + REQUEST_ROW.blamed]!;
    const stagesNs: number[] = [];
    for (let s = 0; s < REQUEST_STAGES.length; s++) stagesNs.push(rows[o + REQUEST_ROW.stages + s]!);
    out[i] = {
      id: rows[o + REQUEST_ROW.id]!,
      flow: rows[o + REQUEST_ROW.flow]!,
      isRead: rows[o + REQUEST_ROW.isRead]! !== 0,
      offsetBytes: rows[o + REQUEST_ROW.offsetBytes]!,
      bytes: rows[o + REQUEST_ROW.bytes]!,
      submitNs: rows[o + REQUEST_ROW.submitNs]!,
      latencyNs: rows[o + REQUEST_ROW.latencyNs]!,
      blamed: b >= 0 && b < REQUEST_STAGES.length ? REQUEST_STAGES[b]! : null,
      stagesNs,
    };
  }
  return out;
}

/**
 * The n slowest requests, slowest first; ties keep the rows' order (completion
 * order), as the analysis's own slowest list does, so the two pick the same
 * requests.
 */
export function slowest(rows: readonly RequestRow[], n: number): RequestRow[] {
  if (n <= 0) return [];
  return [...rows].sort((a, b) => b.latencyNs - a.latencyNs).slice(0, n);
}

/** Latency as a multiple of the baseline (0 when the baseline is not positive). */
export function normalise(latencyNs: number, baselineNs: number): number {
  return baselineNs > 0 ? latencyNs / baselineNs : 0;
}

export interface NormHistogram {
  binWidth: number;
  max: number;
  /** Per flow: counts of bins [k·w, (k+1)·w) for k < max/w, then one overflow bin (≥ max). */
  counts: number[][];
  totals: number[];
}

/** Histogram per flow of latency / baselineNs in bins of binWidth from 0 to max, plus an overflow bin. */
export function normalisedHistogram(
  rows: readonly RequestRow[],
  baselineNs: number,
  flows: number,
  binWidth = 0.1,
  max = 10,
): NormHistogram {
  const bins = Math.round(max / binWidth);
  const counts = Array.from({ length: flows }, () => new Array<number>(bins + 1).fill(0));
  const totals = new Array<number>(flows).fill(0);
  for (const r of rows) {
    if (r.flow < 0 || r.flow >= flows) continue;
    const x = normalise(r.latencyNs, baselineNs);
    // The small epsilon keeps exact bin edges (0.3 / 0.1 = 2.9999…) in the upper bin.
    const k = x >= max ? bins : Math.max(0, Math.floor(x / binWidth + 1e-9));
    counts[r.flow]![Math.min(k, bins)]!++;
    totals[r.flow]!++;
  }
  return { binWidth, max, counts, totals };
}

/** Share of requests within [lo, hi] × baseline (the "ideal" band). */
export function shareWithin(rows: readonly RequestRow[], baselineNs: number, lo = 0.7, hi = 1.3): number {
  if (rows.length === 0) return 0;
  let n = 0;
  for (const r of rows) {
    const x = normalise(r.latencyNs, baselineNs);
    if (x >= lo && x <= hi) n++;
  }
  return n / rows.length;
}

/** Stacked segments: [start, length] per value, in order. */
export function stack(values: readonly number[]): { start: number; len: number }[] {
  let at = 0;
  return values.map((v) => {
    const seg = { start: at, len: Math.max(0, v) };
    at += seg.len;
    return seg;
  });
}

/** Stage durations of an explanation's record (missing stages: 0), in REQUEST_STAGES order. */
export function stageValues(rec: Record<string, number> | undefined): number[] {
  return REQUEST_STAGES.map((s) => rec?.[s] ?? 0);
}
