import { useLayoutEffect, useRef, type PointerEvent } from 'react';
import { axisBottom, axisLeft, axisRight, line, scaleLinear, select, type ScaleLinear } from 'd3';
import type { SeriesPoint } from '../bridge/protocol';
import { SERIES_COLORS } from './colors';
import { formatCount, formatDuration, formatMicros, timeTickFormatter } from './format';
import { useElementWidth } from './hooks';
import { finiteMax, isolatedIndices, nearestIndex, timeDomain } from './series';
import { drawLegend, placeTooltip, type G } from './svgUtil';

export type SeriesMetric = 'throughput' | 'latency';

export interface TimeSeriesChartProps {
  points: SeriesPoint[];
  metric: SeriesMetric;
  /** Chart height in CSS px (default 190). */
  height?: number;
}

interface SeriesDef {
  key: 'iops' | 'mbps' | 'readLatUs' | 'writeLatUs';
  cls: 'iops' | 'mbps' | 'read' | 'write';
  label: string;
  axis: 'left' | 'right';
  /** Drawn wide and translucent under the other series (it often has the same shape). */
  halo: boolean;
  format: (v: number) => string;
}

const SERIES: Record<SeriesMetric, SeriesDef[]> = {
  throughput: [
    { key: 'mbps', cls: 'mbps', label: 'MB/s (right axis)', axis: 'right', halo: true, format: (v) => `${formatCount(v)} MB/s` },
    { key: 'iops', cls: 'iops', label: 'IOPS (left axis)', axis: 'left', halo: false, format: (v) => `${formatCount(v)} IOPS` },
  ],
  latency: [
    { key: 'readLatUs', cls: 'read', label: 'read, mean', axis: 'left', halo: false, format: (v) => `read ${formatMicros(v)}` },
    { key: 'writeLatUs', cls: 'write', label: 'write, mean', axis: 'left', halo: false, format: (v) => `write ${formatMicros(v)}` },
  ],
};

interface Parts {
  width: number;
  height: number;
  m: { top: number; right: number; bottom: number; left: number };
  x: ScaleLinear<number, number>;
  yL: ScaleLinear<number, number>;
  yR: ScaleLinear<number, number>;
  grid: G;
  xAxis: G;
  yAxisL: G;
  yAxisR: G;
  lines: Map<string, SVGPathElement>;
  dots: Map<string, SVGPathElement>;
  empty: SVGTextElement;
  rule: SVGLineElement;
  /** Times of the points last drawn (for hover). */
  ts: Float64Array;
}

/**
 * Throughput (IOPS and MB/s, two y axes) or mean read/write latency (µs) per
 * perf interval over simulated time. One <path> per series, rebuilt when the
 * points change (5,000 points cost about a millisecond); intervals with no
 * completed request (NaN) leave a gap, and a lone value between gaps is drawn
 * as a dot. Hover shows the values of the nearest interval.
 */
export function TimeSeriesChart({ points, metric, height }: TimeSeriesChartProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const parts = useRef<Parts | null>(null);
  const pointsRef = useRef(points);
  pointsRef.current = points;
  const width = useElementWidth(wrapRef);
  const H = height ?? 190;

  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    parts.current = build(svg, metric, Math.max(200, width), H);
    redraw(parts.current, pointsRef.current, metric);
  }, [metric, width, H]);

  useLayoutEffect(() => {
    if (parts.current) redraw(parts.current, points, metric);
  }, [points, points.length, metric]);

  const onMove = (ev: PointerEvent<SVGSVGElement>) => {
    const p = parts.current;
    const tip = tipRef.current;
    const pts = pointsRef.current;
    if (!p || !tip || pts.length === 0) return;
    const rect = svgRef.current!.getBoundingClientRect();
    const mx = ev.clientX - rect.left;
    const my = ev.clientY - rect.top;
    if (mx < p.m.left || mx > p.width - p.m.right || my < p.m.top || my > p.height - p.m.bottom) {
      hide();
      return;
    }
    const t = p.x.invert(mx);
    const d = pts[nearestIndex(p.ts, t)];
    if (!d) return;
    const xx = p.x(d.tNs);
    select(p.rule).attr('x1', xx).attr('x2', xx).style('display', null);
    const lines = [`t = ${formatDuration(d.tNs)}`];
    for (const s of legendOrder(SERIES[metric])) {
      const v = d[s.key];
      lines.push(Number.isFinite(v) ? s.format(v) : `${s.label.split(' ')[0]}: no requests completed`);
    }
    tip.textContent = lines.join('\n');
    tip.hidden = false;
    placeTooltip(tip, mx, my, rect.width, rect.height);
  };
  const hide = () => {
    if (tipRef.current) tipRef.current.hidden = true;
    if (parts.current) select(parts.current.rule).style('display', 'none');
  };

  return (
    <div className="v-view v-ts" ref={wrapRef} data-metric={metric} data-points={points.length}>
      <svg
        ref={svgRef}
        className="v-svg"
        role="img"
        aria-label={metric === 'throughput' ? 'Throughput over simulated time' : 'Mean latency over simulated time'}
        onPointerMove={onMove}
        onPointerLeave={hide}
      />
      <div className="v-tooltip" ref={tipRef} hidden />
    </div>
  );
}

/** Legend and tooltip order: the main series first, halo series after. */
function legendOrder(defs: SeriesDef[]): SeriesDef[] {
  return [...defs].sort((a, b) => Number(a.halo) - Number(b.halo));
}

function build(svg: SVGSVGElement, metric: SeriesMetric, width: number, height: number): Parts {
  const root = select(svg);
  root.selectAll('*').remove();
  root.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);
  const defs = SERIES[metric];
  const legend = root.append('g').attr('transform', 'translate(48,2)');
  const legendH = drawLegend(
    legend,
    legendOrder(defs).map((s) => ({
      label: s.label,
      color: `var(${SERIES_COLORS[s.cls].cssVar})`,
      shape: s.halo ? ('halo' as const) : ('line' as const),
    })),
    width - 60,
  );
  const m = { top: legendH + 16, right: metric === 'throughput' ? 50 : 14, bottom: 22, left: 48 };
  const x = scaleLinear().range([m.left, width - m.right]);
  const yL = scaleLinear().range([height - m.bottom, m.top]);
  const yR = scaleLinear().range([height - m.bottom, m.top]);
  const grid = root.append('g').attr('class', 'v-gridlines');
  const xAxis = root.append('g').attr('class', 'v-axis').attr('transform', `translate(0,${height - m.bottom})`);
  const yAxisL = root.append('g').attr('class', 'v-axis').attr('transform', `translate(${m.left},0)`);
  const yAxisR = root.append('g').attr('class', 'v-axis').attr('transform', `translate(${width - m.right},0)`);
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', 4)
    .attr('y', m.top - 6)
    .text(metric === 'throughput' ? 'IOPS' : 'µs');
  if (metric === 'throughput') {
    root
      .append('text')
      .attr('class', 'v-axis-title')
      .attr('x', width - 4)
      .attr('y', m.top - 6)
      .attr('text-anchor', 'end')
      .text('MB/s');
  }
  const clipId = `v-ts-clip-${Math.random().toString(36).slice(2)}`;
  root
    .append('clipPath')
    .attr('id', clipId)
    .append('rect')
    .attr('x', m.left)
    .attr('y', m.top - 2)
    .attr('width', Math.max(0, width - m.left - m.right))
    .attr('height', Math.max(0, height - m.top - m.bottom + 4));
  const plot = root.append('g').attr('clip-path', `url(#${clipId})`);
  const lines = new Map<string, SVGPathElement>();
  const dots = new Map<string, SVGPathElement>();
  for (const s of defs) {
    lines.set(s.key, plot.append('path').attr('class', `v-line v-line--${s.cls}`).node()!);
    dots.set(s.key, plot.append('path').attr('class', `v-dots--${s.cls}`).node()!);
  }
  const empty = root
    .append('text')
    .attr('class', 'v-empty')
    .attr('x', (m.left + width - m.right) / 2)
    .attr('y', (m.top + height - m.bottom) / 2)
    .attr('text-anchor', 'middle')
    .text('No intervals yet: run the simulation')
    .node()!;
  const rule = root
    .append('line')
    .attr('class', 'v-hover-rule')
    .attr('data-export', 'skip')
    .attr('y1', m.top)
    .attr('y2', height - m.bottom)
    .style('display', 'none')
    .node()!;
  return { width, height, m, x, yL, yR, grid, xAxis, yAxisL, yAxisR, lines, dots, empty, rule, ts: new Float64Array(0) };
}

function redraw(p: Parts, points: SeriesPoint[], metric: SeriesMetric): void {
  const defs = SERIES[metric];
  const ts = Float64Array.from(points, (d) => d.tNs);
  p.ts = ts;
  const [d0, d1] = timeDomain(ts);
  p.x.domain([d0, d1]);
  const left = defs.filter((s) => s.axis === 'left');
  const right = defs.filter((s) => s.axis === 'right');
  const maxL = Math.max(...left.map((s) => finiteMax(points, (d) => d[s.key])), 0);
  const maxR = Math.max(...right.map((s) => finiteMax(points, (d) => d[s.key])), 0);
  p.yL.domain([0, maxL > 0 ? maxL * 1.05 : 1]).nice(5);
  p.yR.domain([0, maxR > 0 ? maxR * 1.05 : 1]).nice(5);

  const xTicks = Math.max(3, Math.floor((p.width - p.m.left - p.m.right) / 80));
  const ticks = p.x.ticks(xTicks);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : d1 - d0;
  const fmt = timeTickFormatter(d0, d1, step);
  p.xAxis.call(
    axisBottom(p.x)
      .ticks(xTicks)
      .tickFormat((v) => fmt(Number(v)))
      .tickSizeOuter(0),
  );
  p.yAxisL.call(
    axisLeft(p.yL)
      .ticks(5)
      .tickFormat((v) => formatCount(Number(v)))
      .tickSizeOuter(0),
  );
  if (right.length > 0) {
    p.yAxisR.style('display', null).call(
      axisRight(p.yR)
        .ticks(5)
        .tickFormat((v) => formatCount(Number(v)))
        .tickSizeOuter(0),
    );
  } else {
    p.yAxisR.style('display', 'none');
  }
  p.grid.call(
    axisLeft(p.yL)
      .ticks(5)
      .tickSize(-(p.width - p.m.left - p.m.right))
      .tickFormat(() => ''),
  );
  p.grid.attr('transform', `translate(${p.m.left},0)`);

  for (const s of defs) {
    const y = s.axis === 'left' ? p.yL : p.yR;
    const path = line<SeriesPoint>()
      .defined((d) => Number.isFinite(d[s.key]))
      .x((d) => p.x(d.tNs))
      .y((d) => y(d[s.key]));
    p.lines.get(s.key)!.setAttribute('d', path(points) ?? '');
    const values = points.map((d) => d[s.key]);
    const iso = isolatedIndices(values);
    let dd = '';
    for (const i of iso) {
      const pt = points[i]!;
      const cx = p.x(pt.tNs);
      const cy = y(pt[s.key]);
      dd += `M${(cx - 2).toFixed(1)},${cy.toFixed(1)}a2,2 0 1,0 4,0a2,2 0 1,0 -4,0`;
    }
    p.dots.get(s.key)!.setAttribute('d', dd);
  }
  p.empty.style.display = points.length === 0 ? '' : 'none';
}
