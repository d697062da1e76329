// The credit counter over time and the host's view of it. Top: the host tail,
// the credit counter and the destaged position (lines), and the counter values
// the host read (points). Bottom: the credits each read left the host
// (queue − (written − read)), against the queue size.
import { useLayoutEffect, useMemo, useRef, type PointerEvent } from 'react';
import { curveStepAfter, line, scaleLinear, select } from 'd3';
import { formatDuration } from '../../views';
import { useElementWidth } from '../../views/hooks';
import { placeTooltip } from '../../views/svgUtil';
import { byteAxis, dotsPath, emptyText, legend, resetSvg, timeAxis } from './chart';
import { exactBytes, formatBytes } from './format';
import { creditPoints, thinSeries, type CreditPoint } from './ring';
import type { XssdStream } from './stream';

const HEIGHT = 300;
const M = { top: 26, right: 12, bottom: 22, left: 62 };
/** Height of the credits plot under the positions plot. */
const CREDITS_H = 78;
const GAP = 26;

interface Pt {
  t: number;
  v: number;
}

export interface CreditChartProps {
  stream: XssdStream;
  queueBytes: number;
  endNs: number;
}

/** Counter, tail and destaged position over time, the host's counter reads, and the credits they left. */
export function CreditChart({ stream, queueBytes, endNs }: CreditChartProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const ruleRef = useRef<SVGLineElement | null>(null);
  const width = Math.max(360, useElementWidth(wrap));
  const series = useMemo(() => {
    const primary = stream.ring.filter((r) => r.unit === 0);
    const tail = thinSeries(primary.map((r) => ({ t: r.t, v: r.tail })), (p) => p.v);
    const counter = thinSeries(primary.map((r) => ({ t: r.t, v: r.counter })), (p) => p.v);
    const durable = thinSeries(stream.destageDone.map((d) => ({ t: d.t, v: d.pos })), (p) => p.v);
    return { tail, counter, durable, reads: creditPoints(stream.credits, queueBytes) };
  }, [stream, queueBytes]);
  const x = useMemo(() => scaleLinear().domain([0, Math.max(1, endNs)]).range([M.left, width - M.right]), [endNs, width]);

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, HEIGHT);
    const lg = svg.append('g').attr('transform', `translate(${M.left},2)`);
    legend(
      lg,
      [
        { label: 'host tail', color: 'var(--x-tail)', shape: 'halo' },
        { label: 'credit counter', color: 'var(--x-counter)', shape: 'line' },
        { label: 'destaged (on flash)', color: 'var(--x-durable)', shape: 'dash' },
        { label: 'counter read by the host', color: 'var(--x-read)', shape: 'rect' },
      ],
      width - M.left - 8,
    );
    const topBottom = HEIGHT - M.bottom - CREDITS_H - GAP;
    const max = Math.max(1, ...[series.tail, series.counter, series.durable].map((s) => s.at(-1)?.v ?? 0), ...series.reads.map((r) => r.read));
    const y = scaleLinear().domain([0, max * 1.04]).range([topBottom, M.top]);
    const yc = scaleLinear().domain([0, Math.max(1, queueBytes)]).range([HEIGHT - M.bottom, HEIGHT - M.bottom - CREDITS_H]);
    const gw = width - M.left - M.right;
    byteAxis(svg.append('g'), y, M.left, gw);
    byteAxis(svg.append('g'), yc, M.left, gw);
    timeAxis(svg.append('g'), x, HEIGHT - M.bottom);
    svg.append('line').attr('class', 'v-axis-line').attr('x1', M.left).attr('x2', width - M.right).attr('y1', topBottom).attr('y2', topBottom);
    svg
      .append('text')
      .attr('class', 'v-axis-title')
      .attr('x', M.left + 4)
      .attr('y', HEIGHT - M.bottom - CREDITS_H - 6)
      .text(`credits the host saw (queue ${formatBytes(queueBytes)})`);
    svg
      .append('line')
      .attr('class', 'x-queue-line')
      .attr('x1', M.left)
      .attr('x2', width - M.right)
      .attr('y1', yc(queueBytes))
      .attr('y2', yc(queueBytes));
    const plot = svg.append('g');
    const path = (pts: Pt[], cls: string) => {
      const d = line<Pt>()
        .curve(curveStepAfter)
        .x((p) => x(p.t))
        .y((p) => y(p.v))(pts);
      plot.append('path').attr('class', `x-line ${cls}`).attr('d', d ?? '');
    };
    path(series.durable, 'x-line--durable');
    path(series.tail, 'x-line--tail');
    path(series.counter, 'x-line--counter');
    plot.append('path').attr('class', 'x-dots--read').attr('d', dotsPath(series.reads, (p) => x(p.t), (p) => y(p.read)));
    plot.append('path').attr('class', 'x-dots--credits').attr('d', dotsPath(series.reads, (p) => x(p.t), (p) => yc(p.credits)));
    if (series.tail.length === 0 && series.reads.length === 0) {
      emptyText(svg, (M.left + width - M.right) / 2, (M.top + topBottom) / 2, 'No credit counter samples yet: run the simulation');
    }
    ruleRef.current = svg
      .append('line')
      .attr('class', 'v-hover-rule')
      .attr('data-export', 'skip')
      .attr('y1', M.top)
      .attr('y2', HEIGHT - M.bottom)
      .style('display', 'none')
      .node();
  }, [series, x, width, queueBytes]);

  const onMove = (ev: PointerEvent<SVGSVGElement>) => {
    const tip = tipRef.current;
    const reads = series.reads;
    if (!tip || reads.length === 0) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const scale = width / rect.width;
    const mx = (ev.clientX - rect.left) * scale;
    if (mx < M.left || mx > width - M.right) return hide();
    const p = nearest(reads, x.invert(mx));
    select(ruleRef.current).attr('x1', x(p.t)).attr('x2', x(p.t)).style('display', null);
    tip.textContent = [
      `t = ${formatDuration(p.t)}`,
      `counter read: ${exactBytes(p.read)}`,
      `host had written: ${exactBytes(p.written)}`,
      `credits: ${exactBytes(p.credits)}`,
    ].join('\n');
    tip.hidden = false;
    placeTooltip(tip, ev.clientX - rect.left, ev.clientY - rect.top, rect.width, rect.height);
  };
  const hide = () => {
    if (tipRef.current) tipRef.current.hidden = true;
    select(ruleRef.current).style('display', 'none');
  };

  return (
    <div className="v-view x-credit" ref={wrap} data-testid="xssd-credit" data-reads={stream.credits.length} data-samples={series.tail.length}>
      <svg
        ref={svgRef}
        className="v-svg"
        role="img"
        aria-label="Credit counter and host tail over time, and the credits the host saw"
        onPointerMove={onMove}
        onPointerLeave={hide}
      />
      <div className="v-tooltip" ref={tipRef} hidden />
    </div>
  );
}

function nearest(points: readonly CreditPoint[], t: number): CreditPoint {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  const a = points[Math.max(0, lo - 1)]!;
  const b = points[lo]!;
  return Math.abs(a.t - t) <= Math.abs(b.t - t) ? a : b;
}
