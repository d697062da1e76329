import { useLayoutEffect, useRef, useState } from 'react';
import { axisBottom, axisLeft, curveStepAfter, line, scaleLinear, scaleLog, select } from 'd3';
import type { LatencyBuckets } from '../bridge/protocol';
import { SERIES_COLORS } from './colors';
import {
  cdfDomainUs,
  cdfFromBuckets,
  maxNinesFor,
  nines,
  ninesLabel,
  percentileMarkers,
  totalCount,
  type CdfPoint,
} from './cdf';
import { formatCount, formatMicros } from './format';
import { useElementWidth } from './hooks';
import { drawLegend } from './svgUtil';

export interface LatencyCdfProps {
  buckets: LatencyBuckets | null;
  /** Chart height in CSS px (default 240). */
  height?: number;
}

type YView = 'cdf' | 'tail';

const CURVES = [
  { key: 'read', label: 'read' },
  { key: 'write', label: 'write' },
] as const;

/**
 * Cumulative distribution of request latency for reads and writes, from the
 * model's exact histogram: x is latency (µs, log scale), y the share of
 * requests at most that slow. "Tail" re-plots y in nines (90 %, 99 %, 99.9 % …
 * equally spaced) so the slow tail is readable. p50 / p99 / p99.9 are marked
 * on each curve and listed in a small table. Redraws when the buckets change.
 */
export function LatencyCdf({ buckets, height }: LatencyCdfProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(wrapRef);
  const [view, setView] = useState<YView>('cdf');
  const H = height ?? 240;

  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (svg) draw(svg, buckets, view, Math.max(220, width), H);
  }, [buckets, view, width, H]);

  const counts = buckets ? { read: totalCount(buckets.read), write: totalCount(buckets.write) } : { read: 0, write: 0 };

  return (
    <div className="v-view v-cdf" ref={wrapRef} data-view={view} data-reads={counts.read} data-writes={counts.write}>
      <div className="v-toolbar">
        <div className="v-seg" role="group" aria-label="Y axis">
          <button
            type="button"
            className="v-btn"
            aria-pressed={view === 'cdf'}
            title="Share of requests (0–100 %) on a linear axis"
            onClick={() => setView('cdf')}
          >
            CDF
          </button>
          <button
            type="button"
            className="v-btn"
            aria-pressed={view === 'tail'}
            title="Stretch the top: 90 %, 99 %, 99.9 %… equally spaced, to see the slowest requests"
            onClick={() => setView('tail')}
          >
            Tail (nines)
          </button>
        </div>
        <span className="v-bm__note">
          {formatCount(counts.read)} reads · {formatCount(counts.write)} writes
        </span>
      </div>
      <svg ref={svgRef} className="v-svg" role="img" aria-label="Latency CDF for reads and writes" />
    </div>
  );
}

function draw(svg: SVGSVGElement, buckets: LatencyBuckets | null, view: YView, width: number, height: number): void {
  const root = select(svg);
  root.selectAll('*').remove();
  root.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);

  const legendG = root.append('g').attr('transform', 'translate(46,2)');
  const legendH = drawLegend(
    legendG,
    CURVES.map((c) => ({ label: c.label, color: `var(${SERIES_COLORS[c.key].cssVar})`, shape: 'line' as const })),
    width - 60,
  );
  const m = { top: legendH + 18, right: 26, bottom: 66, left: 46 };
  const iw = Math.max(10, width - m.left - m.right);

  const curves = CURVES.map((c) => {
    const pairs = buckets ? buckets[c.key] : new Float64Array(0);
    return { ...c, pairs, points: cdfFromBuckets(pairs), total: totalCount(pairs) };
  });
  const [u0, u1] = cdfDomainUs(curves.map((c) => c.points));
  const x = scaleLog().domain([u0, u1]).range([m.left, m.left + iw]).clamp(true);
  const maxN = Math.max(...curves.map((c) => maxNinesFor(c.total)), 2);
  const y =
    view === 'cdf'
      ? scaleLinear().domain([0, 1]).range([height - m.bottom, m.top])
      : scaleLinear().domain([0, maxN]).range([height - m.bottom, m.top]);
  const yOf = (p: number) => (view === 'cdf' ? y(p) : y(nines(p, maxN)));

  // grid + axes
  const yTicks = view === 'cdf' ? [0, 0.25, 0.5, 0.75, 0.9, 1] : Array.from({ length: maxN + 1 }, (_, i) => i);
  const yLabel = (v: number) => (view === 'cdf' ? `${Math.round(v * 100)}%` : ninesLabel(v));
  root
    .append('g')
    .attr('class', 'v-gridlines')
    .attr('transform', `translate(${m.left},0)`)
    .call(
      axisLeft(y)
        .tickValues(yTicks)
        .tickSize(-iw)
        .tickFormat(() => ''),
    );
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(${m.left},0)`)
    .call(
      axisLeft(y)
        .tickValues(yTicks)
        .tickFormat((v) => yLabel(Number(v)))
        .tickSizeOuter(0),
    );
  const decades: number[] = [];
  for (let d = u0; d <= u1 * 1.0001; d *= 10) decades.push(d);
  root
    .append('g')
    .attr('class', 'v-gridlines')
    .attr('transform', `translate(0,${m.top})`)
    .call(
      axisBottom(x)
        .tickValues(decades)
        .tickSize(height - m.top - m.bottom)
        .tickFormat(() => ''),
    );
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(0,${height - m.bottom})`)
    .call(
      axisBottom(x)
        .tickValues(decades.length >= 2 ? decades : x.ticks(4))
        .tickFormat((v) => formatMicros(Number(v)))
        .tickSizeOuter(0),
    );
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', m.left + iw)
    .attr('y', height - m.bottom + 33)
    .attr('text-anchor', 'end')
    .text('latency (µs, log scale)');
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', 4)
    .attr('y', m.top - 6)
    .text(view === 'cdf' ? 'share of requests ≤ x' : 'share ≤ x (nines)');

  const any = curves.some((c) => c.points.length > 0);
  if (!any) {
    root
      .append('text')
      .attr('class', 'v-empty')
      .attr('x', m.left + iw / 2)
      .attr('y', (m.top + height - m.bottom) / 2)
      .attr('text-anchor', 'middle')
      .text('No completed requests yet');
    return;
  }

  const plot = root.append('g');
  const pathOf = line<CdfPoint>()
    .curve(curveStepAfter)
    .x((d) => x(d.us))
    .y((d) => yOf(d.p));
  for (const c of curves) {
    if (c.points.length === 0) continue;
    const first = c.points[0]!;
    plot
      .append('path')
      .attr('class', `v-line v-line--${c.key}`)
      .attr('data-series', c.key)
      .attr('d', pathOf([{ us: first.us, p: 0 }, ...c.points]) ?? '');
  }

  // percentile markers
  const table: { key: string; values: string[] }[] = [];
  for (const c of curves) {
    const marks = percentileMarkers(c.pairs);
    table.push({ key: c.key, values: marks.map((mk) => compactMicros(mk.us)) });
    for (const mk of marks) {
      const cx = x(mk.us);
      const cy = yOf(mk.fraction);
      const g = plot.append('g').attr('class', 'v-marker').attr('data-series', c.key).attr('data-percentile', mk.label);
      g.append('circle')
        .attr('cx', cx)
        .attr('cy', cy)
        .attr('r', 3.5)
        .style('fill', `var(--v-surface)`)
        .style('stroke', `var(${SERIES_COLORS[c.key as 'read' | 'write'].cssVar})`)
        .style('stroke-width', '1.8px')
        .append('title')
        .text(`${c.label} ${mk.label}: ${formatMicros(mk.us)} (${mk.fraction * 100}% of ${c.label}s are at most this slow)`);
    }
  }

  // Percentile summary: one short line per series under the x axis, from the
  // panel's left edge (it must fit a narrow panel, so milliseconds are used
  // above 1 ms).
  const sg = root.append('g').attr('class', 'v-cdf-table').attr('transform', `translate(4,${height - 20})`);
  table.forEach((row, r) => {
    const t = sg.append('text').attr('x', 0).attr('y', (r - table.length + 1) * 14 + 12);
    t.append('tspan')
      .style('fill', `var(${SERIES_COLORS[row.key as 'read' | 'write'].cssVar})`)
      .style('font-weight', '600')
      .text(row.key.padEnd(6, ' '));
    const [p50, p99, p999] = row.values.length ? row.values : ['—', '—', '—'];
    t.append('tspan').attr('x', 42).attr('class', 'v-num').text(`p50 ${p50} · p99 ${p99} · p99.9 ${p999}`);
  });
}

/** "850 µs", "2.4 ms", "12 ms": short enough for the summary line of a narrow panel. */
function compactMicros(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us < 1000) return `${Math.round(us)} µs`;
  const ms = us / 1000;
  return `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}
