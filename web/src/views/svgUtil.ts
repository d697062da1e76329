// D3 helpers shared by the SVG charts (DOM-dependent).

import type { Selection } from 'd3';

export type G = Selection<SVGGElement, unknown, null, undefined>;

export interface LegendItem {
  label: string;
  /** CSS colour (usually var(--v-…)). */
  color: string;
  shape: 'line' | 'dash' | 'halo' | 'rect' | 'tick';
}

/**
 * Draws a one-line legend into g starting at (0, 0), wrapping when wider than
 * maxW, spaced by the measured width of each label (estimated where the DOM
 * cannot measure). Returns its height.
 */
export function drawLegend(g: G, items: readonly LegendItem[], maxW: number): number {
  g.selectAll('*').remove();
  let x = 0;
  let y = 0;
  for (const item of items) {
    const it = g.append('g');
    if (item.shape === 'rect') {
      it.append('rect').attr('x', 0).attr('y', 2).attr('width', 16).attr('height', 8).attr('rx', 1.5).style('fill', item.color);
    } else if (item.shape === 'tick') {
      it.append('rect').attr('x', 7).attr('y', 0).attr('width', 2.5).attr('height', 12).style('fill', item.color);
    } else {
      const ln = it
        .append('line')
        .attr('x1', 0)
        .attr('x2', 16)
        .attr('y1', 6)
        .attr('y2', 6)
        .style('stroke', item.color)
        .style('stroke-width', item.shape === 'halo' ? '4px' : '2px');
      if (item.shape === 'dash') ln.style('stroke-dasharray', '5 3');
      if (item.shape === 'halo') ln.style('stroke-opacity', '0.45').style('stroke-linecap', 'round');
    }
    const text = it.append('text').attr('x', 20).attr('y', 9.5).text(item.label);
    const measured = text.node()?.getComputedTextLength?.() ?? 0;
    const w = 20 + (measured > 0 ? measured : item.label.length * 5.8) + 14;
    if (x > 0 && x + w > maxW) {
      x = 0;
      y += 15;
    }
    it.attr('transform', `translate(${x},${y})`);
    x += w;
  }
  return y + 15;
}

/** Positions an absolutely-positioned tooltip near (x, y) inside a box of boxW × boxH, flipping at the edges. */
export function placeTooltip(tip: HTMLElement, x: number, y: number, boxW: number, boxH: number): void {
  const tw = tip.offsetWidth;
  const th = tip.offsetHeight;
  let left = x + 12;
  let top = y + 12;
  if (left + tw > boxW) left = Math.max(0, x - tw - 12);
  if (top + th > boxH) top = Math.max(0, y - th - 8);
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
}
