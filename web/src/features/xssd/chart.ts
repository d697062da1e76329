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

// The legend is the one every chart shares.
export { drawLegend as legend, type LegendItem as LegendEntry } from '../../views/svgUtil';
