import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { BlockSnapshot, DeviceInfo, EnumNames } from '../bridge/protocol';
import {
  BLOCK_MARKS,
  BLOCK_STATES,
  BLOCK_STATE_COLORS,
  buildLut,
  eraseColor,
  eraseDomain,
  packColor,
  resolveCssColor,
  validColor,
} from './colors';
import { STATE_PRIORITY, blockHitTest, blockMapLayout, planeAddress, type BlockHit, type BlockMapLayout } from './layout';
import { devicePixelRatio, useElementWidth, useThemeVersion } from './hooks';

export type BlockMapMode = 'valid' | 'erase' | 'state';

export interface BlockMapProps {
  device: DeviceInfo;
  snapshot: BlockSnapshot | null;
  names: EnumNames;
  mode: BlockMapMode;
  onModeChange?(mode: BlockMapMode): void;
  /** Called with the block under the pointer on click (the first block of a binned cell). */
  onBlockClick?(block: number): void;
  /** Tallest canvas in CSS px (default 260). */
  maxHeight?: number;
}

const MODES: { mode: BlockMapMode; label: string; title: string }[] = [
  { mode: 'valid', label: 'Valid pages', title: 'Colour each block by how many of its pages still hold live data' },
  { mode: 'erase', label: 'Erase count', title: 'Colour each block by how many times it has been erased (wear)' },
  { mode: 'state', label: 'State', title: 'Colour each block by its state: free, open, full, GC victim, retiring, bad' },
];

let validLut: Uint32Array | null = null;
let eraseLut: Uint32Array | null = null;

const BAD = 5;
const FREE = 0;

/**
 * Every erase block of the device on a canvas, one small cell per block,
 * grouped in one tile per plane (plane order: channel, way/die, plane). Three
 * colourings: valid pages, erase count, block state; the current GC victim is
 * outlined and open blocks carry a dot. Hover for details, click to pick a
 * block (onBlockClick). Redraws only when the snapshot, mode, size or theme
 * changes: one putImageData per redraw.
 */
export function BlockMap(props: BlockMapProps) {
  const { device, snapshot, names, mode, onModeChange, onBlockClick } = props;
  const maxHeight = props.maxHeight ?? 260;
  const [localMode, setLocalMode] = useState<BlockMapMode>(mode);
  useEffect(() => setLocalMode(mode), [mode]);
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef);
  const theme = useThemeVersion();
  const dpr = devicePixelRatio();

  const planes = Math.max(1, device.planes);
  const perPlane = Math.max(1, device.blocks_per_plane);
  const layout = useMemo(
    () => blockMapLayout(planes, perPlane, Math.floor(width * dpr), Math.floor(maxHeight * dpr), Math.round(18 * dpr)),
    [planes, perPlane, width, maxHeight, dpr],
  );

  const [range, setRange] = useState<[number, number]>([0, 1]);

  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const r = draw(canvas, layout, dpr, snapshot, localMode, device);
    setRange((old) => (old[0] === r[0] && old[1] === r[1] ? old : r));
  }, [layout, dpr, snapshot, localMode, device, theme]);

  const hitAt = useCallback(
    (ev: { clientX: number; clientY: number }): BlockHit | null => {
      const canvas = canvasRef.current;
      if (!canvas) return null;
      const rect = canvas.getBoundingClientRect();
      return blockHitTest(layout, Math.floor((ev.clientX - rect.left) * dpr), Math.floor((ev.clientY - rect.top) * dpr));
    },
    [layout, dpr],
  );

  const onMove = useCallback(
    (ev: MouseEvent<HTMLCanvasElement>) => {
      const tip = tipRef.current;
      const wrap = wrapRef.current;
      if (!tip || !wrap) return;
      const hit = hitAt(ev);
      if (!hit) {
        tip.hidden = true;
        return;
      }
      tip.textContent = describe(hit, device, snapshot, names, Boolean(onBlockClick));
      tip.hidden = false;
      const wr = wrap.getBoundingClientRect();
      let x = ev.clientX - wr.left + 12;
      let y = ev.clientY - wr.top + 12;
      const tw = tip.offsetWidth;
      const th = tip.offsetHeight;
      if (x + tw > wr.width) x = Math.max(0, ev.clientX - wr.left - tw - 12);
      if (y + th > wr.height + 60) y = Math.max(0, ev.clientY - wr.top - th - 12);
      tip.style.left = `${x}px`;
      tip.style.top = `${y}px`;
    },
    [hitAt, device, snapshot, names, onBlockClick],
  );

  const onLeave = useCallback(() => {
    if (tipRef.current) tipRef.current.hidden = true;
  }, []);

  const onClick = useCallback(
    (ev: MouseEvent<HTMLCanvasElement>) => {
      const hit = hitAt(ev);
      if (hit && onBlockClick) onBlockClick(hit.firstBlock);
    },
    [hitAt, onBlockClick],
  );

  const pickMode = (m: BlockMapMode) => {
    setLocalMode(m);
    onModeChange?.(m);
  };

  const cssW = layout.width / dpr;
  const cssH = layout.height / dpr;

  return (
    <div
      className="v-view v-bm"
      data-mode={localMode}
      data-blocks={device.blocks}
      data-bin={layout.bin}
      data-has-snapshot={snapshot ? 1 : 0}
    >
      <div className="v-toolbar">
        <div className="v-seg" role="group" aria-label="Colour blocks by">
          {MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              className="v-btn"
              aria-pressed={localMode === m.mode}
              title={m.title}
              onClick={() => pickMode(m.mode)}
            >
              {m.label}
            </button>
          ))}
        </div>
        <span className="v-bm__note">
          {device.blocks.toLocaleString('en-US')} blocks · {planes} plane{planes === 1 ? '' : 's'} ×{' '}
          {perPlane.toLocaleString('en-US')}
          {layout.bin > 1 ? ` · 1 cell = ${layout.bin} blocks` : ''}
          {snapshot ? '' : ' · waiting for block data'}
        </span>
      </div>
      <div className="v-bm__canvas-wrap" ref={wrapRef}>
        <canvas
          ref={canvasRef}
          className="v-bm__canvas"
          width={layout.width}
          height={layout.height}
          style={{ width: `${cssW}px`, height: `${cssH}px`, cursor: onBlockClick ? 'pointer' : 'crosshair' }}
          role="img"
          aria-label={`Block map coloured by ${MODES.find((m) => m.mode === localMode)?.label ?? localMode}`}
          onMouseMove={onMove}
          onMouseLeave={onLeave}
          onClick={onClick}
        />
        <div className="v-tooltip" ref={tipRef} hidden />
      </div>
      <Legend mode={localMode} device={device} range={range} />
    </div>
  );
}

function Legend({ mode, device, range }: { mode: BlockMapMode; device: DeviceInfo; range: [number, number] }) {
  const swatch = (key: (typeof BLOCK_STATES)[number]) => (
    <span className="v-bm__legend-item" key={key}>
      <span className="v-swatch" style={{ background: `var(${BLOCK_STATE_COLORS[key].cssVar})` }} />
      {BLOCK_STATE_COLORS[key].label}
    </span>
  );
  const marks = (
    <>
      <span className="v-bm__legend-item">
        <span className="v-swatch v-swatch--victim" />
        {BLOCK_MARKS.victimOutline.label} (outlined)
      </span>
      <span className="v-bm__legend-item">
        <span className="v-swatch v-swatch--open-mark" />
        {BLOCK_MARKS.openMark.label} (dot)
      </span>
    </>
  );
  if (mode === 'state') {
    return (
      <div className="v-bm__legend" data-legend="state">
        {BLOCK_STATES.map(swatch)}
        {marks}
      </div>
    );
  }
  const ramp = mode === 'valid' ? rampCss(validColor) : rampCss(eraseColor);
  return (
    <div className="v-bm__legend" data-legend={mode}>
      <span className="v-bm__legend-item">
        <span className="v-num">{mode === 'valid' ? '0' : range[0]}</span>
        <span className="v-ramp" style={{ background: ramp }} />
        <span className="v-num">{mode === 'valid' ? device.pages_per_block : range[1]}</span>
        {mode === 'valid' ? 'valid pages per block' : 'erases (least → most worn)'}
      </span>
      {mode === 'valid' ? swatch('free') : null}
      {swatch('bad')}
      {marks}
    </div>
  );
}

function rampCss(fn: (t: number) => string): string {
  const stops: string[] = [];
  for (let i = 0; i <= 8; i++) stops.push(fn(i / 8));
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

/** Draws the map; returns the erase-count domain used. */
function draw(
  canvas: HTMLCanvasElement,
  l: BlockMapLayout,
  dpr: number,
  snapshot: BlockSnapshot | null,
  mode: BlockMapMode,
  device: DeviceInfo,
): [number, number] {
  const ctx = canvas.getContext('2d');
  if (!ctx) return [0, 1];
  if (canvas.width !== l.width) canvas.width = l.width;
  if (canvas.height !== l.height) canvas.height = l.height;
  const img = ctx.createImageData(l.width, l.height);
  const buf = new Uint32Array(img.data.buffer);
  const W = l.width;

  validLut ??= buildLut(validColor);
  eraseLut ??= buildLut(eraseColor);
  const stateColors = BLOCK_STATES.map((s) => packColor(resolveCssColor(canvas, BLOCK_STATE_COLORS[s])));
  const victimMark = packColor(resolveCssColor(canvas, BLOCK_MARKS.victimOutline));
  const openMark = packColor(resolveCssColor(canvas, BLOCK_MARKS.openMark));

  const words = snapshot?.words ?? null;
  const total = device.blocks;
  const haveAll = words !== null && words.length >= total * 4;
  const [eMin, eMax] = words ? eraseDomain(words) : [0, 1];
  const eSpan = Math.max(1, eMax - eMin);
  const ppb = Math.max(1, device.pages_per_block);
  const cell = l.cell;
  const line = Math.max(1, Math.round(dpr));
  const dot = cell >= 5 ? Math.max(1, Math.floor(cell / 3)) : 0;

  const fillRect = (x: number, y: number, w: number, h: number, c: number) => {
    for (let yy = y; yy < y + h; yy++) buf.fill(c, yy * W + x, yy * W + x + w);
  };

  const ring = (x: number, y: number, size: number, w: number, c: number) => {
    fillRect(x, y, size, w, c);
    fillRect(x, y + size - w, size, w, c);
    fillRect(x, y, w, size, c);
    fillRect(x + size - w, y, w, size, c);
  };

  for (let plane = 0; plane < l.planes; plane++) {
    const gx = plane % l.gridCols;
    const gy = Math.floor(plane / l.gridCols);
    const tx = gx * (l.tileW + l.tileGap);
    const ty = gy * (l.tileH + l.tileGap);
    const planeFirst = plane * l.blocksPerPlane;
    const planeEnd = planeFirst + l.blocksPerPlane;
    for (let ci = 0; ci < l.cellsPerPlane; ci++) {
      const x = tx + (ci % l.cols) * l.pitch;
      const y = ty + Math.floor(ci / l.cols) * l.pitch;
      const b0 = planeFirst + ci * l.bin;
      const b1 = Math.min(planeEnd, b0 + l.bin);
      let color = stateColors[FREE]!;
      let flags = 0;
      if (haveAll && words) {
        // Aggregate the blocks of the cell (a single block when bin = 1).
        let validSum = 0;
        let eraseMax = 0;
        let n = 0;
        let bad = 0;
        let free = 0;
        let rank = -1;
        let state = FREE;
        for (let b = b0; b < b1; b++) {
          const o = b * 4;
          const st = words[o + 2]!;
          flags |= words[o + 3]!;
          const r = STATE_PRIORITY[st as 0] ?? 0;
          if (r > rank) {
            rank = r;
            state = st;
          }
          if (st === BAD) {
            bad++;
            continue;
          }
          if (st === FREE) free++;
          validSum += words[o]!;
          const e = words[o + 1]!;
          if (e > eraseMax) eraseMax = e;
          n++;
        }
        if (mode === 'state') {
          color = stateColors[state] ?? stateColors[FREE]!;
        } else if (n === 0 && bad > 0) {
          color = stateColors[BAD]!;
        } else if (mode === 'valid') {
          color = free === n ? stateColors[FREE]! : validLut[lutIndex(validSum / (n * ppb))]!;
        } else {
          color = eraseLut[lutIndex((eraseMax - eMin) / eSpan)]!;
        }
      }
      fillRect(x, y, cell, cell, color);
      if (flags & 1) {
        if (cell >= 4) {
          // A dark ring with a light ring inside: visible on any fill colour.
          ring(x, y, cell, line, victimMark);
          if (cell >= 4 * line + 2) ring(x + line, y + line, cell - 2 * line, line, openMark);
        } else {
          fillRect(x, y, cell, cell, victimMark);
        }
      }
      if (flags & 2 && dot > 0) {
        const off = Math.floor((cell - dot) / 2);
        fillRect(x + off, y + off, dot, dot, openMark);
      }
    }
  }
  ctx.putImageData(img, 0, 0);
  return [eMin, eMax];
}

function lutIndex(t: number): number {
  if (!(t > 0)) return 0;
  return t >= 1 ? 255 : Math.round(t * 255);
}

function describe(
  hit: BlockHit,
  device: DeviceInfo,
  snapshot: BlockSnapshot | null,
  names: EnumNames,
  clickable: boolean,
): string {
  const a = planeAddress(hit.plane, device.planes_per_die, device.ways_per_channel);
  const where = `plane ${hit.plane} (channel ${a.channel}, way ${a.way}, die ${a.die}, plane ${a.planeInDie} of the die)`;
  const lines: string[] = [];
  const words = snapshot?.words;
  const stateName = (s: number) => names.block_states[s] ?? BLOCK_STATES[s] ?? `state ${s}`;
  if (hit.firstBlock === hit.lastBlock) {
    lines.push(`Block ${hit.firstBlock}`, where);
    if (words && words.length >= (hit.firstBlock + 1) * 4) {
      const o = hit.firstBlock * 4;
      const flags = words[o + 3]!;
      const tags = [stateName(words[o + 2]!)];
      if (flags & 1) tags.push('GC victim now');
      if (flags & 2) tags.push('open for writing');
      lines.push(
        `valid pages: ${words[o]} / ${device.pages_per_block}`,
        `erase count: ${words[o + 1]}`,
        `state: ${tags.join(', ')}`,
      );
    }
  } else {
    lines.push(`Blocks ${hit.firstBlock}–${hit.lastBlock} (${hit.lastBlock - hit.firstBlock + 1} in this cell)`, where);
    if (words && words.length >= (hit.lastBlock + 1) * 4) {
      let valid = 0;
      let eMax = 0;
      const counts = new Map<string, number>();
      for (let b = hit.firstBlock; b <= hit.lastBlock; b++) {
        valid += words[b * 4]!;
        eMax = Math.max(eMax, words[b * 4 + 1]!);
        const s = stateName(words[b * 4 + 2]!);
        counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      lines.push(
        `valid pages: ${valid} / ${(hit.lastBlock - hit.firstBlock + 1) * device.pages_per_block}`,
        `most erases: ${eMax}`,
        `states: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}`,
      );
    }
  }
  if (clickable) lines.push(`click: select block ${hit.firstBlock}`);
  return lines.join('\n');
}
