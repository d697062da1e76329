// Replication: one link per secondary (its traffic, its counter against the
// shadow the primary keeps, its status), and the counters over time with the
// link-down stretches.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { curveStepAfter, line, scaleLinear } from 'd3';
import { formatDuration } from '../../views';
import { useElementWidth } from '../../views/hooks';
import { byteAxis, emptyText, legend, resetSvg, type Svg, timeAxis } from './chart';
import { formatBytes } from './format';
import type { SecondaryMetrics, XssdMetrics } from './metrics';
import { thinSeries } from './ring';
import { linkDownIntervals, linkState, secColor, statusFlags, type Interval } from './replication';
import type { XssdStream } from './stream';


const ROW_H = 50;
const CHART_H = 130;
const M = { top: 8, right: 12, bottom: 22, left: 62 };


export interface ReplicationProps {
  x: XssdMetrics;
  stream: XssdStream;
  endNs: number;
}

/** One row per replication link, then the counters over time with the link-down stretches. */
export function ReplicationLinks({ x, stream, endNs }: ReplicationProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = Math.max(420, useElementWidth(wrap));
  const n = x.secondaries.length;
  const down = useMemo(() => linkDownIntervals(stream.status, n, endNs), [stream, n, endNs]);
  const height = n * ROW_H + 24 + CHART_H + M.bottom + 10;

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, height);
    x.secondaries.forEach((s, i) => drawLink(svg, s, i, i * ROW_H + 4, width));
    drawCounters(svg, stream, down, n, width, n * ROW_H + 24, endNs);
  });

  const flags = statusFlags(x.statusBits);
  return (
    <div className="v-view x-repl" ref={wrap} data-testid="xssd-links" data-secondaries={n} data-shadow-samples={stream.shadow.length}>
      <svg ref={svgRef} className="v-svg" role="img" aria-label="Replication links, counters and shadow counters" />
      <p className="x-note" data-testid="xssd-status">
        Status register: <code>0x{x.statusBits.toString(16).padStart(4, '0')}</code>
        {flags.length ? ` (${flags.join(', ')})` : ''} · {x.secondaries.map((s, i) => `S${i} ${linkState(s)}`).join(' · ')} ·
        counter updates use {(x.updateShare * 100).toFixed(2)} % of the link
      </p>
    </div>
  );
}

function drawLink(svg: Svg, s: SecondaryMetrics, i: number, y: number, width: number): void {
  const g = svg.append('g').attr('transform', `translate(0,${y})`).attr('data-testid', 'xssd-link').attr('data-state', linkState(s));
  const state = linkState(s);
  const boxW = 104;
  const x1 = 8 + boxW;
  const x2 = width - 8 - boxW;
  const box = (bx: number, label: string, swatch: boolean) => {
    g.append('rect').attr('class', 'x-box').attr('x', bx).attr('y', 6).attr('width', boxW).attr('height', 26).attr('rx', 4);
    if (swatch) g.append('circle').attr('class', 'x-swatch').attr('cx', bx + 13).attr('cy', 19).attr('r', 4).style('fill', secColor(i));
    g.append('text')
      .attr('x', bx + boxW / 2 + (swatch ? 8 : 0))
      .attr('y', 23)
      .attr('text-anchor', 'middle')
      .text(label);
  };
  box(8, 'primary', false);
  box(x2, `secondary ${i}`, true);
  g.append('line')
    .attr('class', `x-link x-link--${state}`)
    .attr('x1', x1)
    .attr('x2', x2 - 6)
    .attr('y1', 19)
    .attr('y2', 19);
  g.append('path')
    .attr('class', `x-link-head x-link-head--${state}`)
    .attr('d', `M${x2 - 8},14L${x2},19L${x2 - 8},24Z`);
  const mid = (x1 + x2) / 2;
  g.append('text')
    .attr('x', mid)
    .attr('y', 13)
    .attr('text-anchor', 'middle')
    .attr('class', 'x-link-label')
    .text(`link ${state} · mirrored ${formatBytes(s.mirroredBytes)} · drained ${formatBytes(s.drainedBytes)}`);
  g.append('text')
    .attr('x', mid)
    .attr('y', 36)
    .attr('text-anchor', 'middle')
    .attr('class', 'v-muted-text')
    .attr('data-testid', 'xssd-shadow')
    .attr('data-shadow', s.shadow)
    .attr('data-counter', s.counter)
    .text(`its counter ${formatBytes(s.counter)} · shadow on the primary ${formatBytes(s.shadow)} · behind by ${formatBytes(s.counter - s.shadow)}`);
}

interface Pt {
  t: number;
  v: number;
}

function drawCounters(svg: Svg, stream: XssdStream, down: Interval[][], n: number, width: number, y0: number, endNs: number): void {
  const lg = svg.append('g').attr('transform', `translate(${M.left},${y0 - 18})`);
  legend(
    lg,
    [
      { label: 'primary counter', color: 'var(--v-axis)', shape: 'line' },
      { label: "secondary's counter", color: 'var(--x-shadow)', shape: 'line' },
      { label: 'shadow on the primary', color: 'var(--x-shadow)', shape: 'dash' },
      { label: 'link down', color: 'var(--x-down)', shape: 'rect' },
    ],
    width - M.left - 8,
  );
  const x = scaleLinear().domain([0, Math.max(1, endNs)]).range([M.left, width - M.right]);
  const primary = thinSeries(stream.ring.filter((r) => r.unit === 0).map((r) => ({ t: r.t, v: r.counter })), (p) => p.v);
  const max = Math.max(1, primary.at(-1)?.v ?? 0, ...stream.shadow.map((s) => s.counter));
  const y = scaleLinear().domain([0, max * 1.04]).range([y0 + CHART_H, y0]);
  const g = svg.append('g');
  down.forEach((list, i) => {
    for (const d of list) {
      g.append('rect')
        .attr('class', 'x-down-band')
        .attr('x', x(d.start))
        .attr('width', Math.max(1, x(d.end) - x(d.start)))
        .attr('y', y0)
        .attr('height', CHART_H)
        .append('title')
        .text(`secondary ${i} link down ${formatDuration(d.start)}–${formatDuration(d.end)}`);
    }
  });
  byteAxis(svg.append('g'), y, M.left, width - M.left - M.right);
  timeAxis(svg.append('g'), x, y0 + CHART_H);
  const path = (pts: Pt[], cls: string, color: string) => {
    const d = line<Pt>()
      .curve(curveStepAfter)
      .x((p) => x(p.t))
      .y((p) => y(p.v))(pts);
    g.append('path').attr('class', `x-line ${cls}`).attr('d', d ?? '').style('stroke', color);
  };
  path(primary, 'x-line--primary', 'var(--v-axis)');
  for (let i = 0; i < n; i++) {
    const mine = stream.shadow.filter((s) => s.secondary === i);
    path(mine.map((s) => ({ t: s.t, v: s.counter })), 'x-line--secondary', secColor(i));
    path(mine.map((s) => ({ t: s.t, v: s.shadow })), 'x-line--shadow', secColor(i));
  }
  if (stream.shadow.length === 0) emptyText(svg, (M.left + width - M.right) / 2, y0 + CHART_H / 2, 'No shadow counter updates yet');
}
