import { describe, expect, it } from 'vitest';
import {
  blockCellOrigin,
  blockHitTest,
  blockMapLayout,
  dieCellOrigin,
  floorPlanLayout,
  laneIndexOf,
  packLane,
  planeAddress,
  queueFraction,
  timelineLanes,
  transformForDomain,
} from './layout';

describe('floorPlanLayout', () => {
  it('puts a small device in one column of channels within the width', () => {
    const l = floorPlanLayout(4, 2, 600);
    expect(l.groups).toBe(1);
    expect(l.rowsPerGroup).toBe(4);
    expect(l.gridW).toBeLessThanOrEqual(600);
    expect(l.cellW).toBeGreaterThan(40);
  });

  it('wraps 64 channels x 16 ways into groups that fit the height and width', () => {
    const l = floorPlanLayout(64, 16, 600, { maxGridH: 300 });
    expect(l.groups).toBeGreaterThan(1);
    expect(l.gridH).toBeLessThanOrEqual(300);
    expect(l.gridW).toBeLessThanOrEqual(600 + 1e-9);
    expect(l.groups * l.rowsPerGroup).toBeGreaterThanOrEqual(64);
    expect(l.pitch).toBeGreaterThanOrEqual(4);
  });

  it('squeezes rows before splitting channels into groups', () => {
    const l = floorPlanLayout(16, 8, 330, { maxGridH: 300 });
    expect(l.groups).toBe(1);
    expect(l.cellH).toBeGreaterThanOrEqual(12);
    expect(l.gridH).toBeLessThanOrEqual(300);
  });

  it('never overlaps two die cells', () => {
    for (const [ch, ways, w] of [
      [1, 1, 300],
      [8, 4, 500],
      [64, 16, 640],
      [33, 3, 420],
    ] as const) {
      const l = floorPlanLayout(ch, ways, w);
      const seen = new Set<string>();
      for (let c = 0; c < ch; c++) {
        for (let k = 0; k < ways; k++) {
          const o = dieCellOrigin(l, c, k);
          const key = `${Math.round(o.x * 100)},${Math.round(o.y * 100)}`;
          expect(seen.has(key)).toBe(false);
          seen.add(key);
          expect(o.x + l.cellW).toBeLessThanOrEqual(l.gridW + 1e-6);
          expect(o.y + l.cellH).toBeLessThanOrEqual(l.gridH);
        }
      }
    }
  });

  it('shows the queue number only when the cell has room', () => {
    expect(floorPlanLayout(2, 2, 600).showQueueText).toBe(true);
    expect(floorPlanLayout(64, 16, 600).showQueueText).toBe(false);
  });
});

describe('queueFraction', () => {
  it('is 0 for an empty queue, visible for one op, full at 256', () => {
    expect(queueFraction(0)).toBe(0);
    expect(queueFraction(1)).toBeGreaterThan(0.1);
    expect(queueFraction(256)).toBe(1);
    expect(queueFraction(10_000)).toBe(1);
    expect(queueFraction(4)).toBeLessThan(queueFraction(5));
  });
});

describe('blockMapLayout', () => {
  it('fits the box and gives small devices big cells', () => {
    const l = blockMapLayout(16, 64, 560, 260);
    expect(l.bin).toBe(1);
    expect(l.width).toBeLessThanOrEqual(560);
    expect(l.height).toBeLessThanOrEqual(260);
    expect(l.cell).toBeGreaterThanOrEqual(6);
    expect(l.gridCols * l.gridRows).toBeGreaterThanOrEqual(16);
    expect(l.cols * l.tileRows).toBeGreaterThanOrEqual(64);
  });

  it('bins a 262,144-block device into the available pixels', () => {
    const l = blockMapLayout(2048, 128, 600, 260);
    expect(l.bin).toBeGreaterThan(1);
    expect(l.width).toBeLessThanOrEqual(600);
    expect(l.height).toBeLessThanOrEqual(260);
    expect(l.cellsPerPlane * l.bin).toBeGreaterThanOrEqual(128);
  });

  it('uses one block per cell when the pixels allow it (high DPI)', () => {
    const l = blockMapLayout(64, 4096, 2400, 1040);
    expect(l.bin).toBe(1);
    expect(l.height).toBeLessThanOrEqual(1040);
  });

  it('hit-tests back to the cell drawn at each origin', () => {
    const l = blockMapLayout(12, 100, 400, 200);
    for (let p = 0; p < l.planes; p++) {
      for (let c = 0; c < l.cellsPerPlane; c++) {
        const o = blockCellOrigin(l, p, c);
        const hit = blockHitTest(l, o.x, o.y);
        expect(hit).not.toBeNull();
        expect(hit!.plane).toBe(p);
        expect(hit!.cell).toBe(c);
        expect(hit!.firstBlock).toBe(p * 100 + c * l.bin);
        expect(hit!.lastBlock).toBeLessThan((p + 1) * 100);
      }
    }
  });

  it('reports nothing over the gap between plane tiles or outside', () => {
    const l = blockMapLayout(4, 64, 400, 200);
    expect(blockHitTest(l, -1, 0)).toBeNull();
    expect(blockHitTest(l, l.tileW + 1, 0)).toBeNull();
    expect(blockHitTest(l, 10_000, 10_000)).toBeNull();
  });

  it('keeps binned cells inside their plane', () => {
    const l = blockMapLayout(3, 10, 4, 4); // forces heavy binning
    const last = blockHitTest(l, blockCellOrigin(l, 2, l.cellsPerPlane - 1).x, blockCellOrigin(l, 2, l.cellsPerPlane - 1).y);
    expect(last?.lastBlock).toBe(29);
  });
});

describe('planeAddress', () => {
  it('decodes plane = die * planes_per_die + p, die = channel * ways + way', () => {
    expect(planeAddress(0, 2, 4)).toEqual({ die: 0, channel: 0, way: 0, planeInDie: 0 });
    expect(planeAddress(11, 2, 4)).toEqual({ die: 5, channel: 1, way: 1, planeInDie: 1 });
  });
});

describe('timelineLanes', () => {
  it('gives one lane per plane for small devices, plus device and power', () => {
    const lanes = timelineLanes(8);
    expect(lanes).toHaveLength(10);
    expect(lanes[3]!.label).toBe('plane 3');
    expect(lanes.at(-2)!.kind).toBe('device');
    expect(lanes.at(-1)!.kind).toBe('power');
  });

  it('groups many planes so at most 16 rows are drawn and every plane is covered', () => {
    for (const planes of [15, 64, 512, 2048, 65536]) {
      const lanes = timelineLanes(planes, 14);
      expect(lanes.length).toBeLessThanOrEqual(16);
      const planeLanes = lanes.filter((l) => l.kind === 'planes');
      expect(planeLanes[0]!.planeLo).toBe(0);
      expect(planeLanes.at(-1)!.planeHi).toBe(planes - 1);
      for (let i = 1; i < planeLanes.length; i++) expect(planeLanes[i]!.planeLo).toBe(planeLanes[i - 1]!.planeHi + 1);
    }
  });

  it('routes events to their lanes', () => {
    const lanes = timelineLanes(64, 14); // 5 planes per lane
    expect(laneIndexOf('gc', 0, lanes)).toBe(0);
    expect(laneIndexOf('erase', 12, lanes)).toBe(2);
    expect(laneIndexOf('gc', 63, lanes)).toBe(12);
    expect(laneIndexOf('checkpoint', -1, lanes)).toBe(lanes.length - 2);
    expect(laneIndexOf('recovery_step', -1, lanes)).toBe(lanes.length - 1);
    expect(laneIndexOf('power_fail', -1, lanes)).toBe(lanes.length - 1);
  });
});

describe('packLane', () => {
  const x = (ns: number) => ns / 1000; // 1 px per µs
  it('merges events whose pixels touch and keeps separate ones apart', () => {
    const starts = [0, 500, 1500, 10_000];
    const ends = [1000, 1200, 2000, 10_000];
    const runs = packLane([0, 1, 2, 3], starts, ends, x, 100);
    expect(runs).toHaveLength(2);
    expect(runs[0]!.items).toEqual([0, 1, 2]);
    expect(runs[0]!.x1).toBeCloseTo(2.75); // the short third event is widened to 2 px around its middle
    expect(runs[1]!.items).toEqual([3]);
    expect(runs[1]!.x1 - runs[1]!.x0).toBeCloseTo(2); // instant event gets the minimum width
  });

  it('skips events outside the visible range', () => {
    const runs = packLane([0, 1], [-50_000, 500_000], [-40_000, 600_000], x, 100);
    expect(runs).toHaveLength(0);
  });

  it('bounds the number of runs by the pixel width', () => {
    const n = 5000;
    const starts = Array.from({ length: n }, (_, i) => i * 100);
    const ends = starts.map((s) => s + 50);
    const order = starts.map((_, i) => i);
    const runs = packLane(order, starts, ends, (ns) => (ns / (n * 100)) * 300, 300);
    expect(runs.length).toBeLessThanOrEqual(150);
    expect(runs.reduce((a, r) => a + r.items.length, 0)).toBe(n);
  });
});

describe('transformForDomain', () => {
  it('maps the wanted view onto the pixel range', () => {
    const t = transformForDomain(0, 1000, 200, 300, 50, 550);
    const base = (v: number) => 50 + (v / 1000) * 500;
    expect(t.x + t.k * base(200)).toBeCloseTo(50);
    expect(t.x + t.k * base(300)).toBeCloseTo(550);
  });
  it('is the identity for the whole base', () => {
    const t = transformForDomain(0, 1000, 0, 1000, 40, 640);
    expect(t.k).toBeCloseTo(1);
    expect(t.x).toBeCloseTo(0);
  });
});
