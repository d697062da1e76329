// The destage ring on flash: its logical pages as a grid of slots (row by row,
// in ring order), coloured by what the newest page there is (being programmed,
// on flash, padded with filler) and faded by age; the head is the next slot.
// Under it, the destage throughput (log payload and filler, MB/s).
import { useLayoutEffect, useMemo, useRef } from 'react';
import { scaleLinear } from 'd3';
import { formatDuration } from '../../views';
import { useElementWidth } from '../../views/hooks';
import { emptyText, legend, resetSvg, type Svg, timeAxis, valueAxis } from './chart';
import { destageThroughput, drawableBins, niceBinNs, slotGrid, type SlotGrid, type ThroughputBin } from './destage';
import { formatBytes } from './format';
import type { XssdStream } from './stream';

const CELL = 9;
const MAX_ROWS = 16;
const M = { top: 22, right: 12, bottom: 22, left: 48 };
const TPUT_H = 80;

export interface DestageRingProps {
  stream: XssdStream;
  ringPages: number;
  endNs: number;
}

/** The destage ring's slots and the destage throughput. */
export function DestageRing({ stream, ringPages, endNs }: DestageRingProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = Math.max(360, useElementWidth(wrap));
  const cols = Math.max(8, Math.floor((width - 16) / CELL));
  const grid = useMemo(
    () => slotGrid(stream.destage, stream.destageDone, ringPages, cols * MAX_ROWS),
    [stream, ringPages, cols],
  );
  const tput = useMemo(
    () => drawableBins(destageThroughput(stream.destage, stream.destageDone, niceBinNs(endNs, 40), endNs)),
    [stream, endNs],
  );
  const rows = Math.ceil(grid.cells.length / cols);
  const gridH = rows * CELL;
  const height = M.top + gridH + 34 + TPUT_H + M.bottom + 18;

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, height);
    legend(
      svg.append('g').attr('transform', 'translate(8,2)'),
      [
        { label: 'on flash (newer → older)', color: 'var(--x-durable)', shape: 'rect' },
        { label: 'being programmed', color: 'var(--x-programming)', shape: 'rect' },
        { label: 'padded with filler', color: 'var(--x-filler)', shape: 'rect' },
        { label: 'never written', color: 'var(--v-block-free)', shape: 'rect' },
      ],
      width - 16,
    );
    drawGrid(svg, grid, cols, 8, M.top, endNs);
    drawThroughput(svg, tput, width, M.top + gridH + 34, endNs);
  }, [grid, tput, cols, width, height, endNs]);

  const filler = stream.destage.filter((d) => d.payload < d.page).length;
  return (
    <div
      className="v-view x-destage"
      ref={wrap}
      data-testid="xssd-destage"
      data-pages={grid.pages}
      data-head={grid.head}
      data-filler={filler}
    >
      <svg ref={svgRef} className="v-svg" role="img" aria-label="Destage ring slots and destage throughput" />
    </div>
  );
}

function drawGrid(svg: Svg, grid: SlotGrid, cols: number, x0: number, y0: number, endNs: number): void {
  const g = svg.append('g').attr('transform', `translate(${x0},${y0})`);
  const written = grid.cells.filter((c) => c.lastNs >= 0);
  const oldest = written.length ? Math.min(...written.map((c) => c.lastNs)) : 0;
  const span = Math.max(1, endNs - oldest);
  grid.cells.forEach((c, i) => {
    const cls =
      c.lastNs < 0 ? 'x-slot--free' : !c.durable ? 'x-slot--programming' : c.lastPayload < c.lastPage ? 'x-slot--filler' : 'x-slot--durable';
    const age = c.lastNs < 0 ? 0 : (endNs - c.lastNs) / span;
    const rect = g
      .append('rect')
      .attr('class', `x-slot ${cls}`)
      .attr('x', (i % cols) * CELL)
      .attr('y', Math.floor(i / cols) * CELL)
      .attr('width', CELL - 1)
      .attr('height', CELL - 1)
      .style('opacity', c.lastNs < 0 || !c.durable ? 1 : (1 - 0.6 * age).toFixed(2));
    const slots = c.slots > 1 ? `slots ${c.first}–${c.first + c.slots - 1}` : `slot ${c.first}`;
    rect
      .append('title')
      .text(
        c.lastNs < 0
          ? `${slots}: never written`
          : `${slots}: ${c.writes} page${c.writes === 1 ? '' : 's'} written${c.fillerWrites ? ` (${c.fillerWrites} with filler)` : ''}; ` +
              `newest at ${formatDuration(c.lastNs)}, ${formatBytes(c.lastPayload)} of ${formatBytes(c.lastPage)}` +
              (c.durable ? ', on flash' : ', being programmed'),
      );
  });
  if (grid.head >= 0) {
    const i = Math.floor(grid.head / grid.slotsPerCell);
    g.append('rect')
      .attr('class', 'x-slot-head')
      .attr('x', (i % cols) * CELL - 1)
      .attr('y', Math.floor(i / cols) * CELL - 1)
      .attr('width', CELL + 1)
      .attr('height', CELL + 1)
      .append('title')
      .text(`head: the next page goes to slot ${grid.head}`);
  }
  const rows = Math.ceil(grid.cells.length / cols);
  const per = grid.slotsPerCell > 1 ? `one cell = ${grid.slotsPerCell} slots · ` : '';
  g.append('text')
    .attr('class', 'v-muted-text')
    .attr('x', 0)
    .attr('y', rows * CELL + 13)
    .text(
      `${per}${grid.ringPages.toLocaleString('en-US')} slots · ${grid.pages.toLocaleString('en-US')} pages written` +
        (grid.wraps ? ` · wrapped ${grid.wraps}×` : '') +
        (grid.head >= 0 ? ` · head at slot ${grid.head.toLocaleString('en-US')}` : ''),
    );
}

function drawThroughput(
  svg: Svg,
  bins: ThroughputBin[],
  width: number,
  y0: number,
  endNs: number,
): void {
  const x = scaleLinear().domain([0, Math.max(1, endNs)]).range([M.left, width - M.right]);
  const rate = (bytes: number, b: { t0: number; t1: number }) => bytes / 1e6 / ((b.t1 - b.t0) / 1e9);
  const max = Math.max(0, ...bins.map((b) => rate(b.payload + b.filler, b)));
  const y = scaleLinear().domain([0, max > 0 ? max * 1.1 : 1]).nice(3).range([y0 + TPUT_H, y0]);
  svg.append('text').attr('class', 'v-axis-title').attr('x', 4).attr('y', y0 - 6).text('destaged, MB/s');
  valueAxis(svg.append('g'), y, M.left, (v) => String(v), 'left', 3);
  timeAxis(svg.append('g'), x, y0 + TPUT_H);
  const g = svg.append('g');
  for (const b of bins) {
    const mbps = (bytes: number) => rate(bytes, b);
    const bx = x(b.t0) + 0.5;
    const bw = Math.max(1, x(b.t1) - x(b.t0) - 1);
    if (b.payload > 0) {
      g.append('rect').attr('class', 'x-bar--payload').attr('x', bx).attr('width', bw).attr('y', y(mbps(b.payload))).attr('height', y(0) - y(mbps(b.payload)));
    }
    if (b.filler > 0) {
      const top = y(mbps(b.payload + b.filler));
      g.append('rect').attr('class', 'x-bar--filler').attr('x', bx).attr('width', bw).attr('y', top).attr('height', y(mbps(b.payload)) - top);
    }
    g.append('rect')
      .attr('class', 'x-hit')
      .attr('x', bx)
      .attr('width', bw)
      .attr('y', y0)
      .attr('height', TPUT_H)
      .append('title')
      .text(`${formatDuration(b.t0)}–${formatDuration(b.t1)}: ${mbps(b.payload).toFixed(1)} MB/s log, ${mbps(b.filler).toFixed(1)} MB/s filler`);
  }
  if (max === 0) emptyText(svg, (M.left + width - M.right) / 2, y0 + TPUT_H / 2, 'Nothing destaged yet');
}
