// D3 helpers shared by the X-SSD charts (DOM-dependent): an SVG cleared to a
// size, and the time and byte axes drawn the way the dashboard's charts draw
// theirs (.v-axis, .v-gridlines, tick labels in the views' formats).
import { axisBottom, axisLeft, axisRight, select, type ScaleLinear, type Selection } from 'd3';
import { timeTickFormatter } from '../../views';
import { byteTicks, formatBytes } from './format';

export type Svg = Selection<SVGSVGElement, unknown, null, undefined>;
export type G = Selection<SVGGElement, unknown, null, undefined>;

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** Empties svg and sizes it to width × height (user units = CSS px). */
export function resetSvg(el: SVGSVGElement, width: number, height: number): Svg {
  const svg = select(el);
  svg.selectAll('*').remove();
  svg.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);
  return svg;
}

/** A time axis along the bottom of a plot at y (ns, ticks in the best unit). */
export function timeAxis(g: G, x: ScaleLinear<number, number>, y: number): void {
  const [d0, d1] = x.domain() as [number, number];
  const [r0, r1] = x.range() as [number, number];
  const count = Math.max(2, Math.floor(Math.abs(r1 - r0) / 80));
  const ticks = x.ticks(count);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : d1 - d0;
  const fmt = timeTickFormatter(d0, d1, step);
  g.attr('class', 'v-axis')
    .attr('transform', `translate(0,${y})`)
    .call(
      axisBottom(x)
        .ticks(count)
        .tickFormat((v) => fmt(Number(v)))
        .tickSizeOuter(0),
    );
}

/** A byte axis (power-of-two ticks) on the left at x, with grid lines gridWidth long (0: none). */
export function byteAxis(g: G, y: ScaleLinear<number, number>, x: number, gridWidth = 0, side: 'left' | 'right' = 'left'): void {
  const ticks = byteTicks((y.domain() as [number, number])[1], 4);
  const axis = (side === 'left' ? axisLeft(y) : axisRight(y))
    .tickValues(ticks)
    .tickFormat((v) => formatBytes(Number(v)))
    .tickSizeOuter(0);
  g.attr('class', 'v-axis').attr('transform', `translate(${x},0)`).call(axis);
  if (gridWidth > 0) {
    const grid = g.append('g').attr('class', 'v-gridlines');
    for (const t of ticks) {
      grid
        .append('line')
        .attr('x1', 0)
        .attr('x2', side === 'left' ? gridWidth : -gridWidth)
        .attr('y1', y(t))
        .attr('y2', y(t));
    }
    grid.lower();
  }
}

/** A numeric axis (d3's nice ticks) with a formatter, left or right at x. */
export function valueAxis(
  g: G,
  y: ScaleLinear<number, number>,
  x: number,
  format: (v: number) => string,
  side: 'left' | 'right' = 'left',
  ticks = 4,
): void {
  const axis = (side === 'left' ? axisLeft(y) : axisRight(y))
    .ticks(ticks)
    .tickFormat((v) => format(Number(v)))
    .tickSizeOuter(0);
  g.attr('class', 'v-axis').attr('transform', `translate(${x},0)`).call(axis);
}

/** An "empty" message centred in a box. */
export function emptyText(svg: Svg, x: number, y: number, text: string): void {
  svg.append('text').attr('class', 'v-empty').attr('x', x).attr('y', y).attr('text-anchor', 'middle').text(text);
}

/** Small circles of radius r as one path string (thousands of points stay cheap). */
export function dotsPath<T>(pts: readonly T[], fx: (p: T) => number, fy: (p: T) => number, r = 2): string {
  let d = '';
  for (const p of pts) {
    const cx = fx(p);
    const cy = fy(p);
    if (!Number.isFinite(cx) || !Number.isFinite(cy)) continue;
    d += `M${(cx - r).toFixed(1)},${cy.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
  }
  return d;
}

export interface LegendEntry {
  label: string;
  /** CSS colour (usually var(--x-…) or var(--v-…)). */
  color: string;
  shape: 'line' | 'dash' | 'halo' | 'rect';
}

/**
 * A one-line legend at (0, 0) of g, wrapping past maxW, spaced by the measured
 * width of each label (long labels in wide fonts do not collide). Returns its height.
 */
export function legend(g: G, items: readonly LegendEntry[], maxW: number): number {
  g.selectAll('*').remove();
  let x = 0;
  let y = 0;
  for (const item of items) {
    const it = g.append('g');
    if (item.shape === 'rect') {
      it.append('rect').attr('y', 2).attr('width', 14).attr('height', 8).attr('rx', 1.5).style('fill', item.color);
    } else {
      const ln = it
        .append('line')
        .attr('x2', 16)
        .attr('y1', 6)
        .attr('y2', 6)
        .style('stroke', item.color)
        .style('stroke-width', item.shape === 'halo' ? '4px' : '2px');
      if (item.shape === 'dash') ln.style('stroke-dasharray', '5 3');
      if (item.shape === 'halo') ln.style('stroke-opacity', '0.45');
    }
    const text = it.append('text').attr('x', 20).attr('y', 9.5).text(item.label);
    const measured = text.node()?.getComputedTextLength?.() ?? 0;
    const w = 20 + (measured > 0 ? measured : item.label.length * 6.2) + 14;
    if (x > 0 && x + w > maxW) {
      x = 0;
      y += 15;
    }
    it.attr('transform', `translate(${x},${y})`);
    x += w;
  }
  return y + 15;
}
