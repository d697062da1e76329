// The valid-copies view: for every request GC held up, its latency (÷ tPROG)
// against the valid pages of the GC run that held its die, with the number
// of such requests per valid-page count on top (the instrumented-SSD paper's
// "IO requests per number of valid copies").
import { useLayoutEffect, useRef } from 'react';
import { axisBottom, axisLeft, max, scaleLinear, scaleLog, select } from 'd3';
import type { DeviceInfo } from '../../bridge/protocol';
import { formatCount, formatDuration } from '../../views/format';
import { useElementWidth } from '../../views/hooks';
import { drawLegend } from '../../views/svgUtil';
import { jitter, latencyRange, logTicks, validDomain, type GcDelays } from './gcDelays';
import { flowColor } from './palette';
import { useTip } from './useTip';

/** Requests held up by GC against the valid pages of the run that held them. */
export function ValidCopiesView({ delays, device }: { delays: GcDelays; device: DeviceInfo }) {
  const { wrapRef, tipRef, onPointerMove, onPointerLeave } = useTip();
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(wrapRef, 420);
  useLayoutEffect(() => {
    if (svgRef.current) draw(svgRef.current, delays, device, Math.max(280, width));
  }, [delays, device, width]);
  const reads = delays.rows.some((r) => r.isRead);
  return (
    <div className="v-view obs__chart" ref={wrapRef} data-testid="valid-copies" data-delayed={delays.delayed} data-points={delays.rows.length}>
      <svg
        ref={svgRef}
        className="v-svg"
        role="img"
        aria-label="Latency of requests held up by GC against the valid pages the GC had to copy"
        onPointerMove={onPointerMove}
        onPointerLeave={onPointerLeave}
      />
      <p className="obs__note">
        {delays.rows.length < delays.delayed ? `The ${formatCount(delays.rows.length)} slowest of them are drawn. ` : ''}
        {reads ? 'Filled dots: writes; rings: reads. ' : ''}Hover a dot for the run that held it.
      </p>
      <div className="v-tooltip" ref={tipRef} hidden />
    </div>
  );
}

function draw(svg: SVGSVGElement, d: GcDelays, device: DeviceInfo, width: number): void {
  const root = select(svg);
  root.selectAll('*').remove();
  const m = { top: 4, right: 12, bottom: 40, left: 46 };
  const iw = width - m.left - m.right;
  const flows = [...new Set(d.rows.map((r) => r.flow))].sort((a, b) => a - b);
  const legendH = drawLegend(
    root.append('g').attr('transform', `translate(${m.left},${m.top})`),
    flows.map((f) => ({ label: device.flows[f]?.name ?? (f === 65535 ? 'trace' : `flow ${f}`), color: flowColor(f), shape: 'rect' as const })),
    iw,
  );
  const histTop = m.top + (flows.length ? legendH : 0) + 20;
  const histH = 46;
  const plotTop = histTop + histH + 24;
  const plotH = 190;
  const height = plotTop + plotH + m.bottom;
  root.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);

  const [v0, v1] = validDomain(d, device.pages_per_block);
  const x = scaleLinear().domain([v0 - 0.5, v1 + 0.5]).range([m.left, m.left + iw]);
  const unit = Math.max(1, x(1) - x(0));

  // Requests per valid-page count (all delayed requests, not only those drawn).
  const hmax = Math.max(1, max(d.byValid, (b) => b.requests) ?? 0);
  const hy = scaleLinear().domain([0, hmax]).range([histTop + histH, histTop]);
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(${m.left},0)`)
    .call(axisLeft(hy).tickValues(hy.ticks(2).filter(Number.isInteger)).tickFormat((v) => formatCount(Number(v))).tickSizeOuter(0));
  root.append('text').attr('class', 'v-axis-title').attr('x', m.left).attr('y', histTop - 6).text('requests per valid-page count');
  const hist = root.append('g').attr('class', 'obs__vc-hist');
  for (const b of d.byValid) {
    hist
      .append('rect')
      .attr('class', 'obs__vc-bar')
      .attr('x', x(b.valid) - Math.max(0.5, unit * 0.4))
      .attr('width', Math.max(1, unit * 0.8))
      .attr('y', hy(b.requests))
      .attr('height', histTop + histH - hy(b.requests))
      .attr('data-tip', `${formatCount(b.requests)} request${b.requests === 1 ? '' : 's'} held up by a GC run whose victim had ${b.valid} valid page${b.valid === 1 ? '' : 's'}`);
  }
  root
    .append('line')
    .attr('class', 'obs__axisline')
    .attr('x1', m.left)
    .attr('x2', m.left + iw)
    .attr('y1', histTop + histH + 0.5)
    .attr('y2', histTop + histH + 0.5);

  // Latency ÷ tPROG against valid pages.
  const base = device.program_ns;
  const range = latencyRange(d.rows, base);
  const y = range.log
    ? scaleLog().domain([range.lo * 0.9, range.hi * 1.1]).range([plotTop + plotH, plotTop])
    : scaleLinear().domain([0, range.hi]).nice(5).range([plotTop + plotH, plotTop]);
  const [dlo, dhi] = y.domain() as [number, number];
  const yTicks = range.log ? logTicks(dlo, dhi) : y.ticks(5);
  root
    .append('g')
    .attr('class', 'v-gridlines')
    .attr('transform', `translate(${m.left},0)`)
    .call(axisLeft(y).tickValues(yTicks).tickSize(-iw).tickFormat(() => ''));
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(${m.left},0)`)
    .call(axisLeft(y).tickValues(yTicks).tickFormat((v) => `${Number(v)}×`).tickSizeOuter(0));
  const [ylo, yhi] = y.domain() as [number, number];
  const bandLo = Math.max(0.7, ylo);
  const bandHi = Math.min(1.3, yhi);
  if (bandHi > bandLo)
    root
      .append('rect')
      .attr('class', 'obs__band')
      .attr('x', m.left)
      .attr('width', iw)
      .attr('y', y(bandHi))
      .attr('height', y(bandLo) - y(bandHi))
      .attr('data-tip', 'ideal: 1 ± 0.3 × tPROG, a write that met an idle device');
  const dots = root.append('g').attr('class', 'obs__vc-dots');
  // Slowest last, so they stay on top.
  for (let i = d.rows.length - 1; i >= 0; i--) {
    const r = d.rows[i]!;
    const ratio = base > 0 ? r.latencyNs / base : 0;
    const flow = device.flows[r.flow]?.name ?? (r.flow === 65535 ? 'trace' : `flow ${r.flow}`);
    const c = dots
      .append('circle')
      .attr('class', 'obs__vc-dot')
      .attr('cx', x(r.validPages + jitter(r.id) * Math.min(1, 6 / unit)))
      .attr('cy', y(Math.max(ylo, ratio)))
      .attr('r', 2.6)
      .attr(
        'data-tip',
        `request ${r.id} (${flow}, ${r.isRead ? 'read' : 'write'}): ${formatDuration(r.latencyNs)} = ${ratio.toFixed(1)} × tPROG\n` +
          `held up by GC on plane ${r.plane} (victim block ${r.victim}, ${r.validPages} valid pages, ` +
          `${r.copies === null ? 'still copying when the records end' : `${r.copies} copied`})\n` +
          `GC held its die ${formatDuration(r.gcBusyNs)} of its ${formatDuration(r.waitNs)} wait`,
      );
    if (r.isRead) c.style('fill', 'none').style('stroke', flowColor(r.flow)).style('stroke-width', '1.3px');
    else c.style('fill', flowColor(r.flow));
  }
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(0,${plotTop + plotH})`)
    .call(
      axisBottom(x)
        .ticks(Math.max(2, Math.floor(iw / 60)))
        .tickFormat((v) => (Number.isInteger(Number(v)) ? String(v) : ''))
        .tickSizeOuter(0),
    );
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', m.left + iw)
    .attr('y', plotTop + plotH + 30)
    .attr('text-anchor', 'end')
    .text(`valid pages of the GC victim that held the die (of ${formatCount(device.pages_per_block)} per block)`);
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', m.left)
    .attr('y', plotTop - 8)
    .text(`request latency ÷ tPROG${range.log ? ' (log scale)' : ''}`);
}
