// The destage ring on flash: which of its logical pages were written and when,
// and the destage throughput over time. Pure: unit-tested.
import type { DestageDone, DestageIssue } from './stream';

/**
 * When each issued page became durable (ns), or -1 if it is not yet: the
 * first destage_done at or after its issue whose durable stream position
 * covers the page's end. (A destage_done is recorded when the durable position
 * advances, and one may cover several pages that finished out of order.)
 * Issues and dones are in time order, so their positions only grow.
 */
export function durableTimes(issues: readonly DestageIssue[], dones: readonly DestageDone[]): number[] {
  const out = new Array<number>(issues.length).fill(-1);
  let j = 0;
  for (let i = 0; i < issues.length; i++) {
    const d = issues[i]!;
    const end = d.pos + d.payload;
    while (j < dones.length && (dones[j]!.pos < end || dones[j]!.t < d.t)) j++;
    if (j === dones.length) break;
    out[i] = dones[j]!.t;
  }
  return out;
}

/** One cell of the slot grid: one ring slot, or several adjacent ones on a large ring. */
export interface SlotCell {
  /** First slot of the cell. */
  first: number;
  /** Slots in the cell. */
  slots: number;
  /** Pages issued to these slots so far. */
  writes: number;
  /** Of those, pages padded with filler (payload < page). */
  fillerWrites: number;
  /** When the newest page was issued, ns (-1 if never). */
  lastNs: number;
  /** Payload and page bytes of the newest page. */
  lastPayload: number;
  lastPage: number;
  /** The newest page of every written slot in the cell is on flash. */
  durable: boolean;
}

export interface SlotGrid {
  cells: SlotCell[];
  slotsPerCell: number;
  ringPages: number;
  /** The slot the next page goes to, or -1 before the first. */
  head: number;
  /** Full passes over the ring so far (wrap-arounds). */
  wraps: number;
  /** Pages issued, in total. */
  pages: number;
}

/**
 * The ring's slots, grouped into at most maxCells cells, with what was written
 * to each: how often, the newest page's payload and filler, and whether it is
 * on flash yet.
 */
export function slotGrid(
  issues: readonly DestageIssue[],
  dones: readonly DestageDone[],
  ringPages: number,
  maxCells = 2048,
): SlotGrid {
  const pages = Math.max(1, Math.floor(ringPages));
  const slotsPerCell = Math.max(1, Math.ceil(pages / Math.max(1, maxCells)));
  const n = Math.ceil(pages / slotsPerCell);
  const cells: SlotCell[] = [];
  for (let i = 0; i < n; i++) {
    const first = i * slotsPerCell;
    cells.push({
      first,
      slots: Math.min(slotsPerCell, pages - first),
      writes: 0,
      fillerWrites: 0,
      lastNs: -1,
      lastPayload: 0,
      lastPage: 0,
      durable: false,
    });
  }
  let head = -1;
  let wraps = 0;
  let prev = -1;
  const newest = new Map<number, number>(); // slot → index of its newest issue
  issues.forEach((d, i) => {
    const slot = d.slot % pages;
    const c = cells[Math.floor(slot / slotsPerCell)]!;
    c.writes++;
    if (d.payload < d.page) c.fillerWrites++;
    c.lastNs = d.t;
    c.lastPayload = d.payload;
    c.lastPage = d.page;
    if (prev >= 0 && slot <= prev) wraps++;
    prev = slot;
    head = (slot + 1) % pages;
    newest.set(slot, i);
  });
  const durableAt = durableTimes(issues, dones);
  for (const c of cells) c.durable = c.lastNs >= 0;
  for (const [slot, i] of newest) {
    if (durableAt[i]! < 0) cells[Math.floor(slot / slotsPerCell)]!.durable = false;
  }
  return { cells, slotsPerCell, ringPages: pages, head, wraps, pages: issues.length };
}

/** Destaged bytes per time bin. */
export interface ThroughputBin {
  t0: number;
  t1: number;
  /** Log bytes that became durable in the bin. */
  payload: number;
  /** Filler bytes programmed with them. */
  filler: number;
}

/**
 * Destage throughput: bytes that became durable on flash per bin of binNs over
 * [0, endNs] (the last bin ends at endNs), each page counted when the durable
 * position passed its end.
 */
export function destageThroughput(
  issues: readonly DestageIssue[],
  dones: readonly DestageDone[],
  binNs: number,
  endNs: number,
): ThroughputBin[] {
  const width = Math.max(1, binNs);
  const end = Math.max(endNs, 1);
  const n = Math.max(1, Math.ceil(end / width));
  const bins: ThroughputBin[] = [];
  // The last bin stops at endNs: a rate over it is over the time it covers.
  for (let i = 0; i < n; i++) bins.push({ t0: i * width, t1: Math.min((i + 1) * width, Math.max(end, i * width + 1)), payload: 0, filler: 0 });
  const at = durableTimes(issues, dones);
  issues.forEach((d, i) => {
    const t = at[i]!;
    if (t < 0) return;
    const bin = bins[Math.min(n - 1, Math.floor(t / width))]!;
    bin.payload += d.payload;
    bin.filler += Math.max(0, d.page - d.payload);
  });
  return bins;
}

/** A bin width giving about `target` bins over endNs, rounded to 1, 2 or 5 × a power of ten ns. */
export function niceBinNs(endNs: number, target = 50): number {
  const raw = Math.max(1, endNs / Math.max(1, target));
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/**
 * The bins worth drawing as rates: the complete ones. A last bin cut short by
 * the end time holds too few events to be a rate (one group commit in half a
 * bin reads as twice the real rate).
 */
export function drawableBins<T extends { t0: number; t1: number }>(bins: readonly T[]): T[] {
  if (bins.length < 2) return bins.slice();
  const width = bins[0]!.t1 - bins[0]!.t0;
  const last = bins[bins.length - 1]!;
  return last.t1 - last.t0 < width ? bins.slice(0, -1) : bins.slice();
}
