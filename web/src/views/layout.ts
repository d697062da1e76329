// Layout math for the dense views. Pure: unit-tested in Node.

// ---------------------------------------------------------------- floor plan

const MIN_CELL_H = 12;

export interface FloorPlanLayout {
  channels: number;
  ways: number;
  /** Channel columns side by side (many channels wrap into groups). */
  groups: number;
  rowsPerGroup: number;
  /** Width reserved left of each group's cells for the "ch N" label and bus stub. */
  labelW: number;
  groupGap: number;
  /** Horizontal distance between die cells (cell width + gap). */
  pitch: number;
  cellW: number;
  cellH: number;
  rowH: number;
  groupW: number;
  gridW: number;
  gridH: number;
  /** Room for the queue-depth number inside a cell. */
  showQueueText: boolean;
  /** Room for four op marks (read/program/erase/copyback) or just one. */
  fourOpMarks: boolean;
}

export interface FloorPlanOptions {
  /** Tallest die grid wanted before channels wrap into another column (px). */
  maxGridH?: number;
  /** Widest die cell pitch (px). */
  maxPitch?: number;
  labelW?: number;
}

/**
 * Lays out channels × ways die cells in `width` px. One row per channel; when
 * one column of channels would be taller than maxGridH the channels wrap into
 * several side-by-side groups (the fewest that fit, keeping cells ≥ 4 px).
 */
export function floorPlanLayout(
  channels: number,
  ways: number,
  width: number,
  options: FloorPlanOptions = {},
): FloorPlanLayout {
  const ch = Math.max(1, Math.floor(channels));
  const w = Math.max(1, Math.floor(ways));
  const maxGridH = options.maxGridH ?? 300;
  const maxPitch = options.maxPitch ?? 150;
  const labelW = options.labelW ?? 34;
  const groupGap = 14;
  const W = Math.max(80, width);

  const make = (groupsWanted: number): FloorPlanLayout => {
    const rowsPerGroup = Math.ceil(ch / groupsWanted);
    const groups = Math.ceil(ch / rowsPerGroup);
    const avail = W - groups * labelW - (groups - 1) * groupGap;
    const pitch = Math.max(1, Math.min(maxPitch, avail / (groups * w)));
    const gapX = pitch >= 12 ? 3 : 1;
    const cellW = Math.max(1, pitch - gapX);
    // Natural height follows the width; squeezed (down to MIN_CELL_H) to fit maxGridH.
    const natural = Math.round(Math.min(36, Math.max(10, pitch * 0.55)));
    const fit = Math.floor(maxGridH / rowsPerGroup) - (natural >= 16 ? 5 : 3);
    const cellH = Math.max(Math.min(natural, 10), Math.min(natural, fit));
    const rowH = cellH + (cellH >= 16 ? 5 : 3);
    const groupW = labelW + w * pitch;
    return {
      channels: ch,
      ways: w,
      groups,
      rowsPerGroup,
      labelW,
      groupGap,
      pitch,
      cellW,
      cellH,
      rowH,
      groupW,
      gridW: groups * groupW + (groups - 1) * groupGap,
      gridH: rowsPerGroup * rowH,
      showQueueText: cellW >= 20 && cellH >= 16,
      fourOpMarks: cellW >= 44,
    };
  };

  // The fewest channel groups whose grid fits maxGridH with cells at least
  // MIN_CELL_H tall (squeezing rows is better than splitting channels).
  let best: FloorPlanLayout | null = null;
  for (let g = 1; g <= ch; g++) {
    const l = make(g);
    if (l.groups !== g && g > 1) continue; // same as a smaller count
    if (l.pitch < 4 && g > 1) break; // narrower is unreadable
    if (!best || l.gridH < best.gridH) best = l;
    if (l.gridH <= maxGridH && (l.cellH >= MIN_CELL_H || l.rowsPerGroup === 1)) return l;
  }
  return best ?? make(1);
}

/** Top-left corner of die (channel, way) in a floor-plan layout. */
export function dieCellOrigin(l: FloorPlanLayout, channel: number, way: number): { x: number; y: number } {
  const group = Math.floor(channel / l.rowsPerGroup);
  const row = channel % l.rowsPerGroup;
  return {
    x: group * (l.groupW + l.groupGap) + l.labelW + way * l.pitch,
    y: row * l.rowH,
  };
}

/** Origin of channel c's row (where its label and bus line start). */
export function channelRowOrigin(l: FloorPlanLayout, channel: number): { x: number; y: number } {
  const group = Math.floor(channel / l.rowsPerGroup);
  return { x: group * (l.groupW + l.groupGap), y: (channel % l.rowsPerGroup) * l.rowH };
}

/** Queue-depth bar fraction: log-scaled so 1 queued op shows and 256+ fills the bar. */
export function queueFraction(q: number, full = 256): number {
  if (!(q > 0)) return 0;
  return Math.min(1, Math.log2(1 + q) / Math.log2(1 + full));
}

// ----------------------------------------------------------------- block map

export interface BlockMapLayout {
  planes: number;
  blocksPerPlane: number;
  /** Blocks drawn in one cell (1 unless the device has more blocks than pixels). */
  bin: number;
  cellsPerPlane: number;
  /** Cell columns and rows in one plane tile. */
  cols: number;
  tileRows: number;
  /** Cell size and cell pitch (cell + gap), in device pixels. */
  cell: number;
  pitch: number;
  tileGap: number;
  tileW: number;
  tileH: number;
  /** Plane tiles per row and rows of tiles. */
  gridCols: number;
  gridRows: number;
  /** Pixels used. */
  width: number;
  height: number;
}

/**
 * Packs `planes` tiles of `blocksPerPlane` cells into availW × availH device
 * pixels: the largest cell size (≤ maxCell) at which everything fits, then the
 * most compact tile shape. If even one-pixel cells do not fit, blocks are
 * binned (2, 4, 8… per cell) so a 262,144-block device still draws.
 */
export function blockMapLayout(
  planes: number,
  blocksPerPlane: number,
  availW: number,
  availH: number,
  maxCell = 24,
): BlockMapLayout {
  const P = Math.max(1, Math.floor(planes));
  const B = Math.max(1, Math.floor(blocksPerPlane));
  const W = Math.max(1, Math.floor(availW));
  const H = Math.max(1, Math.floor(availH));
  for (let bin = 1; ; bin *= 2) {
    const n = Math.ceil(B / bin);
    for (let cell = Math.max(1, Math.floor(maxCell)); cell >= 1; cell--) {
      const gap = cell >= 5 ? 1 : 0;
      const pitch = cell + gap;
      const tileGap = cell >= 3 ? Math.min(8, Math.max(3, Math.round(cell * 0.6))) : 1;
      let best: BlockMapLayout | null = null;
      const maxCols = Math.min(n, Math.floor((W + gap) / pitch));
      for (let cols = 1; cols <= maxCols; cols++) {
        const tileRows = Math.ceil(n / cols);
        if (cols > 1 && Math.ceil(n / (cols - 1)) === tileRows) continue; // same height, wider
        const tileW = cols * pitch - gap;
        const tileH = tileRows * pitch - gap;
        const gridCols = Math.min(P, Math.floor((W + tileGap) / (tileW + tileGap)));
        if (gridCols < 1) continue;
        const gridRows = Math.ceil(P / gridCols);
        const height = gridRows * (tileH + tileGap) - tileGap;
        if (height > H) continue;
        const width = gridCols * (tileW + tileGap) - tileGap;
        if (!best || height < best.height || (height === best.height && width < best.width)) {
          best = {
            planes: P,
            blocksPerPlane: B,
            bin,
            cellsPerPlane: n,
            cols,
            tileRows,
            cell,
            pitch,
            tileGap,
            tileW,
            tileH,
            gridCols,
            gridRows,
            width,
            height,
          };
        }
      }
      if (best) return best;
    }
    if (bin > B) {
      // Not even one cell per plane fits: give the smallest layout possible.
      const gridCols = Math.max(1, Math.min(P, Math.floor((W + 2) / 3)));
      const gridRows = Math.ceil(P / gridCols);
      return {
        planes: P,
        blocksPerPlane: B,
        bin: B,
        cellsPerPlane: 1,
        cols: 1,
        tileRows: 1,
        cell: 1,
        pitch: 1,
        tileGap: 2,
        tileW: 1,
        tileH: 1,
        gridCols,
        gridRows,
        width: gridCols * 3 - 2,
        height: gridRows * 3 - 2,
      };
    }
  }
}

/** Top-left pixel of cell `cellIndex` of plane `plane`. */
export function blockCellOrigin(l: BlockMapLayout, plane: number, cellIndex: number): { x: number; y: number } {
  const gx = plane % l.gridCols;
  const gy = Math.floor(plane / l.gridCols);
  const cx = cellIndex % l.cols;
  const cy = Math.floor(cellIndex / l.cols);
  return {
    x: gx * (l.tileW + l.tileGap) + cx * l.pitch,
    y: gy * (l.tileH + l.tileGap) + cy * l.pitch,
  };
}

export interface BlockHit {
  plane: number;
  cell: number;
  firstBlock: number;
  lastBlock: number;
}

/** The cell under device pixel (x, y), or null over gaps and empty space. */
export function blockHitTest(l: BlockMapLayout, x: number, y: number): BlockHit | null {
  if (x < 0 || y < 0) return null;
  const gx = Math.floor(x / (l.tileW + l.tileGap));
  const gy = Math.floor(y / (l.tileH + l.tileGap));
  if (gx >= l.gridCols || gy >= l.gridRows) return null;
  const ox = x - gx * (l.tileW + l.tileGap);
  const oy = y - gy * (l.tileH + l.tileGap);
  if (ox >= l.tileW || oy >= l.tileH) return null;
  const plane = gy * l.gridCols + gx;
  if (plane >= l.planes) return null;
  const col = Math.min(l.cols - 1, Math.floor(ox / l.pitch));
  const row = Math.min(l.tileRows - 1, Math.floor(oy / l.pitch));
  const cell = row * l.cols + col;
  if (cell >= l.cellsPerPlane) return null;
  const firstBlock = plane * l.blocksPerPlane + cell * l.bin;
  const lastBlock = Math.min(firstBlock + l.bin, (plane + 1) * l.blocksPerPlane) - 1;
  return { plane, cell, firstBlock, lastBlock };
}

/** Channel, way, die and plane-in-die of a plane index (plane = die × planes_per_die + p). */
export function planeAddress(
  plane: number,
  planesPerDie: number,
  waysPerChannel: number,
): { die: number; channel: number; way: number; planeInDie: number } {
  const ppd = Math.max(1, planesPerDie);
  const wpc = Math.max(1, waysPerChannel);
  const die = Math.floor(plane / ppd);
  return { die, channel: Math.floor(die / wpc), way: die % wpc, planeInDie: plane % ppd };
}

/**
 * Per-cell state for binned block maps: the most noteworthy state among the
 * blocks of the cell (bad > retiring > victim > open > full > free).
 */
export const STATE_PRIORITY = [0, 2, 1, 3, 4, 5] as const; // index: BlockState → rank

// ------------------------------------------------------------------ timeline

export interface Lane {
  key: string;
  label: string;
  kind: 'planes' | 'device' | 'power';
  /** Planes covered (inclusive) for plane lanes; -1 otherwise. */
  planeLo: number;
  planeHi: number;
}

/**
 * Timeline lanes: plane lanes (grouped so there are at most maxPlaneLanes),
 * then "device" (checkpoints) and "power" (power failures, recovery steps).
 */
export function timelineLanes(planes: number, maxPlaneLanes = 14): Lane[] {
  const P = Math.max(1, Math.floor(planes));
  const per = Math.ceil(P / Math.max(1, maxPlaneLanes));
  const lanes: Lane[] = [];
  for (let lo = 0; lo < P; lo += per) {
    const hi = Math.min(P, lo + per) - 1;
    lanes.push({
      key: `p${lo}`,
      label: lo === hi ? `plane ${lo}` : `planes ${lo}–${hi}`,
      kind: 'planes',
      planeLo: lo,
      planeHi: hi,
    });
  }
  lanes.push({ key: 'device', label: 'device', kind: 'device', planeLo: -1, planeHi: -1 });
  lanes.push({ key: 'power', label: 'power', kind: 'power', planeLo: -1, planeHi: -1 });
  return lanes;
}

/** Lane index of an event (plane kinds by unit; checkpoint → device; power kinds → power). */
export function laneIndexOf(kind: string, unit: number, lanes: Lane[]): number {
  const power = lanes.length - 1;
  const device = lanes.length - 2;
  if (kind === 'power_fail' || kind === 'recovery_step') return power;
  if (kind === 'checkpoint' || unit < 0) return device;
  const planeLanes = lanes.length - 2;
  if (planeLanes <= 0) return device;
  const first = lanes[0]!;
  const per = first.planeHi - first.planeLo + 1;
  return Math.min(planeLanes - 1, Math.floor(unit / per));
}

export interface PackedRun {
  x0: number;
  x1: number;
  startNs: number;
  endNs: number;
  /** Indices (into the caller's array) of the events merged into this run. */
  items: number[];
}

/**
 * Merges events (given in start order as parallel start/end arrays, through
 * `order`) whose pixels touch into runs, so a zoomed-out lane of thousands of
 * microsecond events draws as a handful of rects. Events wholly outside
 * [0, width] are skipped; every run is at least minWidth px wide.
 */
export function packLane(
  order: readonly number[],
  startNs: ArrayLike<number>,
  endNs: ArrayLike<number>,
  x: (ns: number) => number,
  width: number,
  minWidth = 2,
  joinPx = 1,
): PackedRun[] {
  const runs: PackedRun[] = [];
  let cur: PackedRun | null = null;
  for (const i of order) {
    const s = startNs[i]!;
    const e = endNs[i]!;
    let x0 = x(s);
    let x1 = x(e);
    if (x1 - x0 < minWidth) {
      const mid = (x0 + x1) / 2;
      x0 = mid - minWidth / 2;
      x1 = mid + minWidth / 2;
    }
    if (x1 < 0 || x0 > width) continue;
    if (cur && x0 <= cur.x1 + joinPx) {
      if (x1 > cur.x1) cur.x1 = x1;
      if (e > cur.endNs) cur.endNs = e;
      cur.items.push(i);
    } else {
      cur = { x0, x1, startNs: s, endNs: e, items: [i] };
      runs.push(cur);
    }
  }
  return runs;
}

/**
 * The d3-zoom transform (k, x) that makes a base scale mapping [b0, b1] onto
 * the pixel range [r0, r1] show [v0, v1] across that same range instead.
 */
export function transformForDomain(
  b0: number,
  b1: number,
  v0: number,
  v1: number,
  r0: number,
  r1: number,
): { k: number; x: number } {
  const base = (t: number) => r0 + ((t - b0) / (b1 - b0 || 1)) * (r1 - r0);
  const k = (r1 - r0) / (base(v1) - base(v0) || 1);
  return { k, x: r0 - k * base(v0) };
}
