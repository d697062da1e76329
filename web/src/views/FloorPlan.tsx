import { useLayoutEffect, useRef } from 'react';
import { select } from 'd3';
import type { DeviceInfo, EnumNames, Frame } from '../bridge/protocol';
import { DIE_STATES, DIE_STATE_COLORS, OP_COLORS, OP_KINDS, dieStateName } from './colors';
import { channelRowOrigin, dieCellOrigin, floorPlanLayout, queueFraction, type FloorPlanLayout } from './layout';
import { useElementWidth } from './hooks';

export interface FloorPlanProps {
  device: DeviceInfo;
  frame: Frame | null;
  names: EnumNames;
  /** Tallest die grid (px) before channels wrap into side-by-side groups. Default 300. */
  maxGridHeight?: number;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const LEGEND_ROW = 16;
const METER_ROW = 18;
/** How long an op mark stays (faded) after the die finished an operation. */
const OP_TRAIL_MS = 450;
/** Die tooltips are refreshed at most this often (and on hover). */
const TITLE_REFRESH_MS = 500;

interface Handles {
  layout: FloorPlanLayout;
  dies: SVGGElement[];
  titles: SVGTitleElement[];
  qtexts: (SVGTextElement | null)[];
  /** One path for every die's queue bar. */
  qPath: SVGPathElement;
  qBarX: number;
  qBarY: number;
  qBarH: number;
  qBarMax: number;
  /** Op marks: one path per kind for "finished this frame" and one for the fading trail. */
  opNow: SVGPathElement[];
  opRecent: SVGPathElement[];
  /** 4 (read/program/erase/copyback) or 1 (any) marks per die. */
  opsPerDie: number;
  opX: number[];
  opSize: number;
  lastOpAt: Float64Array;
  opTimer: number;
  buses: SVGLineElement[];
  busLabels: SVGTextElement[];
  meterFills: SVGRectElement[];
  meterTexts: SVGTextElement[];
  meterW: number;
  prevState: Int16Array;
  prevQueue: Int32Array;
  prevBusy: Int8Array;
  titlesAt: number;
  frame: Frame | null;
  names: EnumNames;
}

/**
 * The device floor plan: one row per channel (its bus line lights while it
 * transfers), one cell per die coloured by what the die is doing, its queue
 * depth, and marks for the flash operations it finished since the previous
 * frame (they fade out over about half a second, so work between frames
 * still shows); below, the NVMe queue occupancy per flow and the DRAM buffer.
 *
 * React renders only the <svg>. D3 builds the cells when the device or width
 * changes; per frame only changed die states touch their element, and queue
 * bars and op marks are a handful of merged paths, so a 64 × 16 device
 * updates cheaply.
 */
export function FloorPlan({ device, frame, names, maxGridHeight }: FloorPlanProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const handles = useRef<Handles | null>(null);
  const frameRef = useRef<Frame | null>(frame);
  frameRef.current = frame;
  const width = useElementWidth(wrapRef);

  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return undefined;
    const h = build(svg, device, names, width, maxGridHeight ?? 300);
    handles.current = h;
    update(h, frameRef.current, device);
    return () => window.clearTimeout(h.opTimer);
  }, [device, names, width, maxGridHeight]);

  useLayoutEffect(() => {
    if (handles.current) update(handles.current, frame, device);
  }, [frame, device]);

  return (
    <div
      className="v-view v-fp"
      ref={wrapRef}
      data-channels={device.channels}
      data-ways={device.ways_per_channel}
    >
      <svg
        className="v-svg"
        ref={svgRef}
        role="img"
        aria-label={`Floor plan: ${device.channels} channels × ${device.ways_per_channel} dies per channel`}
        onPointerOver={(ev) => {
          // Refresh the hovered die's tooltip right away.
          const g = (ev.target as Element).closest?.('.v-die');
          const h = handles.current;
          if (g && h) refreshTitle(h, Number(g.getAttribute('data-die')));
        }}
      />
    </div>
  );
}

function el<K extends keyof SVGElementTagNameMap>(
  parent: Element,
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG_NS, tag) as SVGElementTagNameMap[K];
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.appendChild(e);
  return e;
}

function build(svg: SVGSVGElement, device: DeviceInfo, names: EnumNames, width: number, maxGridH: number): Handles {
  const W = Math.max(160, width);
  const channels = Math.max(1, device.channels);
  const ways = Math.max(1, device.ways_per_channel);
  const dies = channels * ways;
  const layout = floorPlanLayout(channels, ways, W, { maxGridH });
  select(svg).selectAll('*').remove();

  // --- legend (wraps to more rows when narrow)
  const legend = el(svg, 'g', { class: 'v-legend' });
  let lx = 0;
  let ly = 0;
  for (const s of DIE_STATES) {
    const label = DIE_STATE_COLORS[s].label;
    const w = 16 + label.length * 5.8 + 10;
    if (lx > 0 && lx + w > W) {
      lx = 0;
      ly += LEGEND_ROW;
    }
    el(legend, 'rect', {
      x: lx,
      y: ly + 2,
      width: 11,
      height: 11,
      rx: 2,
      class: 'v-swatch-die',
      style: `fill:var(${DIE_STATE_COLORS[s].cssVar})`,
    });
    el(legend, 'text', { x: lx + 15, y: ly + 11.5 }).textContent = label;
    lx += w;
  }
  {
    const label = 'op finished: read / program / erase / copyback';
    const w = 4 * 5 + 6 + label.length * 5.6;
    if (lx > 0 && lx + w > W) {
      lx = 0;
      ly += LEGEND_ROW;
    }
    OP_KINDS.forEach((k, i) => {
      el(legend, 'rect', { x: lx + i * 5, y: ly + 5, width: 4, height: 4, style: `fill:var(${OP_COLORS[k].cssVar})` });
    });
    el(legend, 'text', { x: lx + 4 * 5 + 4, y: ly + 11.5, class: 'v-muted-text' }).textContent = label;
  }
  const gridTop = ly + LEGEND_ROW + 8;

  // --- channels: bus lines and labels
  const grid = el(svg, 'g', { class: 'v-grid-root', transform: `translate(0,${gridTop})` });
  const buses: SVGLineElement[] = [];
  const busLabels: SVGTextElement[] = [];
  const busLayer = el(grid, 'g', {});
  for (let c = 0; c < channels; c++) {
    const o = channelRowOrigin(layout, c);
    const midY = o.y + layout.cellH / 2;
    buses.push(
      el(busLayer, 'line', {
        class: 'v-bus',
        x1: o.x + layout.labelW - 6,
        x2: o.x + layout.labelW + ways * layout.pitch - 2,
        y1: midY,
        y2: midY,
        'data-channel': c,
        'data-busy': 0,
      }),
    );
    const label = el(busLayer, 'text', { class: 'v-ch-label', x: o.x, y: midY + 3.5, 'data-busy': 0 });
    label.textContent = `ch${c}`;
    busLabels.push(label);
  }

  // --- dies
  const dieLayer = el(grid, 'g', {});
  const dieEls: SVGGElement[] = [];
  const qtexts: (SVGTextElement | null)[] = [];
  const titles: SVGTitleElement[] = [];
  const { cellW, cellH } = layout;
  const barH = cellH >= 14 ? 3 : 2;
  for (let c = 0; c < channels; c++) {
    for (let w = 0; w < ways; w++) {
      const d = c * ways + w;
      const o = dieCellOrigin(layout, c, w);
      const g = el(dieLayer, 'g', {
        class: 'v-die',
        transform: `translate(${o.x},${o.y})`,
        'data-die': d,
        'data-channel': c,
        'data-way': w,
        'data-state': 'idle',
      });
      const title = el(g, 'title', {});
      title.textContent = `Die ${d} · channel ${c}, way ${w}`;
      titles.push(title);
      el(g, 'rect', { class: 'v-die-body', width: cellW, height: cellH, rx: Math.min(3, cellW / 4) });
      qtexts.push(
        layout.showQueueText ? el(g, 'text', { class: 'v-die-qtext', x: 3, y: Math.min(11, cellH - barH - 3) }) : null,
      );
      dieEls.push(g);
    }
  }
  // Merged overlays (not per die): queue bars, then op marks.
  const overlay = el(grid, 'g', { class: 'v-fp-overlay', 'pointer-events': 'none' });
  const qPath = el(overlay, 'path', { class: 'v-die-qbar' });
  const opsPerDie = layout.fourOpMarks ? 4 : 1;
  const opSize = opsPerDie === 4 ? 4 : Math.max(2, Math.min(3, cellW - 2));
  const opX = opsPerDie === 4 ? OP_KINDS.map((_, i) => cellW - 4 * 5 - 1 + i * 5) : [cellW - opSize - 0.5];
  const opRecent: SVGPathElement[] = [];
  const opNow: SVGPathElement[] = [];
  const opClasses = opsPerDie === 4 ? OP_KINDS.map((k) => `v-op--${k}`) : ['v-op--any'];
  for (const cls of opClasses) opRecent.push(el(overlay, 'path', { class: `v-op v-op--recent ${cls}` }));
  for (const cls of opClasses) opNow.push(el(overlay, 'path', { class: `v-op ${cls}` }));

  // --- meters: NVMe queue occupancy per flow, DRAM buffer
  const meterTop = gridTop + layout.gridH + 10;
  const meters = el(svg, 'g', { transform: `translate(0,${meterTop})` });
  const header = el(meters, 'text', { class: 'v-section-label', x: 0, y: 9 });
  header.textContent = W >= 420 ? 'NVMe QUEUES (outstanding / depth) · DRAM WRITE BUFFER' : 'NVMe QUEUES · WRITE BUFFER';
  el(header, 'title', {}).textContent =
    'Commands each workload flow has outstanding in its NVMe queue, out of its queue depth; dirty pages in the DRAM write buffer, out of its slots';
  const items = device.flows.length + 1;
  const cols = Math.max(1, Math.min(items, Math.floor(W / 270)));
  const colW = (W - (cols - 1) * 14) / cols;
  const labelW = Math.min(90, colW * 0.3);
  const valueW = Math.min(130, colW * 0.38);
  const meterW = Math.max(20, colW - labelW - valueW - 8);
  const meterFills: SVGRectElement[] = [];
  const meterTexts: SVGTextElement[] = [];
  for (let i = 0; i < items; i++) {
    const col = i % cols;
    const row = Math.floor(i / cols);
    const g = el(meters, 'g', { transform: `translate(${col * (colW + 14)},${16 + row * METER_ROW})` });
    const isBuffer = i === device.flows.length;
    const name = isBuffer ? 'DRAM buffer' : (device.flows[i]?.name ?? `flow ${i}`);
    g.setAttribute('data-meter', isBuffer ? 'buffer' : `flow-${i}`);
    el(g, 'text', { x: 0, y: 10 }).textContent = truncate(name, Math.floor(labelW / 5.8));
    el(g, 'title', {}).textContent = isBuffer
      ? 'Dirty pages in the DRAM write buffer / buffer slots, and host writes waiting for a free slot'
      : `Flow "${name}": commands outstanding in its NVMe queue / queue depth ${device.flows[i]?.queue_depth ?? '?'}`;
    el(g, 'rect', { class: 'v-bar-track', x: labelW, y: 2, width: meterW, height: 9, rx: 2 });
    meterFills.push(el(g, 'rect', { class: 'v-bar-fill', x: labelW, y: 2, width: 0, height: 9, rx: 2 }));
    meterTexts.push(el(g, 'text', { class: 'v-num', x: labelW + meterW + 6, y: 10 }));
  }
  const meterRows = Math.ceil(items / cols);
  const height = meterTop + 16 + meterRows * METER_ROW + 2;
  svg.setAttribute('viewBox', `0 0 ${W} ${height}`);
  svg.setAttribute('height', String(height));

  const qBarX = Math.min(2, cellW / 6);
  return {
    layout,
    dies: dieEls,
    titles,
    qtexts,
    qPath,
    qBarX,
    qBarY: cellH - barH - 1,
    qBarH: barH,
    qBarMax: Math.max(0, cellW - 2 * qBarX),
    opNow,
    opRecent,
    opsPerDie,
    opX,
    opSize,
    lastOpAt: new Float64Array(dies * opsPerDie).fill(-Infinity),
    opTimer: 0,
    buses,
    busLabels,
    meterFills,
    meterTexts,
    meterW,
    prevState: new Int16Array(dies).fill(-1),
    prevQueue: new Int32Array(dies).fill(-1),
    prevBusy: new Int8Array(channels).fill(-1),
    titlesAt: -Infinity,
    frame: null,
    names,
  };
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, Math.max(1, n - 1))}…`;
}

function update(h: Handles, frame: Frame | null, device: DeviceInfo): void {
  h.frame = frame;
  const { layout } = h;
  const dies = h.dies.length;
  let qd = '';
  for (let d = 0; d < dies; d++) {
    const s = frame?.dieState[d] ?? 0;
    const q = frame?.dieQueue[d] ?? 0;
    if (h.prevState[d] !== s) {
      h.prevState[d] = s;
      h.dies[d]!.setAttribute('data-state', dieStateName(s, h.names.die_states));
    }
    if (h.prevQueue[d] !== q) {
      h.prevQueue[d] = q;
      const t = h.qtexts[d];
      if (t) t.textContent = q > 0 ? String(q) : '';
    }
    if (q > 0) {
      const o = dieCellOrigin(layout, Math.floor(d / layout.ways), d % layout.ways);
      const w = Math.max(1, queueFraction(q) * h.qBarMax);
      qd += `M${(o.x + h.qBarX).toFixed(1)},${(o.y + h.qBarY).toFixed(1)}h${w.toFixed(1)}v${h.qBarH}h${(-w).toFixed(1)}z`;
    }
  }
  if (h.qPath.getAttribute('d') !== qd) h.qPath.setAttribute('d', qd);

  // Op marks: remember when each die last finished each kind of op.
  const now = performance.now();
  if (frame && frame.dieOps.length >= dies * 4) {
    for (let d = 0; d < dies; d++) {
      if (h.opsPerDie === 4) {
        for (let k = 0; k < 4; k++) if (frame.dieOps[d * 4 + k]! > 0) h.lastOpAt[d * 4 + k] = now;
      } else if (frame.dieOps[d * 4]! + frame.dieOps[d * 4 + 1]! + frame.dieOps[d * 4 + 2]! + frame.dieOps[d * 4 + 3]! > 0) {
        h.lastOpAt[d] = now;
      }
    }
  }
  drawOps(h, now);

  for (let c = 0; c < h.buses.length; c++) {
    const busy = frame?.channelBusy[c] ? 1 : 0;
    if (h.prevBusy[c] !== busy) {
      h.prevBusy[c] = busy;
      h.buses[c]!.setAttribute('data-busy', String(busy));
      h.busLabels[c]!.setAttribute('data-busy', String(busy));
    }
  }

  const flows = device.flows.length;
  for (let i = 0; i <= flows; i++) {
    const fill = h.meterFills[i];
    const text = h.meterTexts[i];
    if (!fill || !text) continue;
    let frac = 0;
    let label = '';
    if (i < flows) {
      const depth = Math.max(1, device.flows[i]?.queue_depth ?? 1);
      const out = frame?.flowOutstanding[i] ?? 0;
      frac = out / depth;
      label = `${out} / ${depth}`;
    } else {
      const cap = frame?.bufferCapacity ?? device.buffer_slots;
      const dirty = frame?.bufferDirty ?? 0;
      const waiting = frame?.waitingWrites ?? 0;
      frac = cap > 0 ? dirty / cap : 0;
      label = cap > 0 ? `${dirty} / ${cap}` : 'no buffer';
      if (waiting > 0) label += ` · ${waiting} wait`;
    }
    const width = (Math.min(1, Math.max(0, frac)) * h.meterW).toFixed(1);
    if (fill.getAttribute('width') !== width) fill.setAttribute('width', width);
    const full = frac >= 0.999 ? '1' : '0';
    if (fill.getAttribute('data-full') !== full) fill.setAttribute('data-full', full);
    if (text.textContent !== label) text.textContent = label;
  }

  if (now - h.titlesAt >= TITLE_REFRESH_MS) {
    h.titlesAt = now;
    for (let d = 0; d < dies; d++) refreshTitle(h, d);
  }
}

/** Rebuilds the op-mark paths: bright for ops finished this frame, faded for the recent trail. */
function drawOps(h: Handles, now: number): void {
  const { layout } = h;
  const dies = h.dies.length;
  const nowParts: string[] = h.opNow.map(() => '');
  const recentParts: string[] = h.opRecent.map(() => '');
  let pending = false;
  const s = h.opSize;
  for (let d = 0; d < dies; d++) {
    let o: { x: number; y: number } | null = null;
    for (let k = 0; k < h.opsPerDie; k++) {
      const age = now - h.lastOpAt[d * h.opsPerDie + k]!;
      if (!(age < OP_TRAIL_MS)) continue;
      o ??= dieCellOrigin(layout, Math.floor(d / layout.ways), d % layout.ways);
      const rect = `M${(o.x + h.opX[k]!).toFixed(1)},${(o.y + (h.opsPerDie === 4 ? 2 : 0.5)).toFixed(1)}h${s}v${s}h${-s}z`;
      if (age === 0) nowParts[k] += rect;
      else {
        recentParts[k] += rect;
        pending = true;
      }
    }
  }
  h.opNow.forEach((p, k) => {
    if (p.getAttribute('d') !== nowParts[k]) p.setAttribute('d', nowParts[k]!);
  });
  h.opRecent.forEach((p, k) => {
    if (p.getAttribute('d') !== recentParts[k]) p.setAttribute('d', recentParts[k]!);
  });
  // Without new frames (paused), let the trail run out on its own.
  window.clearTimeout(h.opTimer);
  if (pending || nowParts.some((x) => x)) h.opTimer = window.setTimeout(() => drawOps(h, performance.now()), OP_TRAIL_MS / 3);
}

function refreshTitle(h: Handles, d: number): void {
  const t = h.titles[d];
  if (!t) return;
  const ways = h.layout.ways;
  const f = h.frame;
  const stateName = dieStateName(f?.dieState[d] ?? 0, h.names.die_states);
  const q = f?.dieQueue[d] ?? 0;
  let text = `Die ${d} · channel ${Math.floor(d / ways)}, way ${d % ways}\nstate: ${stateName}\nqueue: ${q} op${q === 1 ? '' : 's'}`;
  if (f && f.dieOps.length >= (d + 1) * 4) {
    const r = f.dieOps[d * 4]!;
    const p = f.dieOps[d * 4 + 1]!;
    const e = f.dieOps[d * 4 + 2]!;
    const cb = f.dieOps[d * 4 + 3]!;
    if (r + p + e + cb > 0) text += `\nfinished since last frame: ${r} read, ${p} program, ${e} erase, ${cb} copyback`;
  }
  if (t.textContent !== text) t.textContent = text;
}
