// The GC breakdown view: erase-only against copy-then-erase runs (the mean
// run split into its erase and its copying, as in the instrumented-SSD
// paper), how many planes were inside each kind of run over time, and the
// runs per plane.
import { useLayoutEffect, useRef } from 'react';
import { axisBottom, axisLeft, max, scaleBand, scaleLinear, select, type Selection } from 'd3';
import { formatCount, formatDuration, timeTickFormatter } from '../../views/format';
import { useElementWidth } from '../../views/hooks';
import { drawLegend } from '../../views/svgUtil';
import { splitMean, type GcClass, type GcSummary } from './gc';
import { GC_CLASS_STYLE } from './palette';
import { useTip } from './useTip';

type G = Selection<SVGGElement, unknown, null, undefined>;

/** The GC breakdown of one analysis, drawn with D3 into one SVG (exportable). */
export function GcView({ gc }: { gc: GcSummary }) {
  const { wrapRef, tipRef, onPointerMove, onPointerLeave } = useTip();
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(wrapRef, 560);
  useLayoutEffect(() => {
    if (svgRef.current) draw(svgRef.current, gc, Math.max(320, width));
  }, [gc, width]);
  const c = gc.eraseOnly.runs + gc.copyThenErase.runs;
  return (
    <div
      className="v-view obs__chart"
      ref={wrapRef}
      data-testid="gc-view"
      data-started={gc.started}
      data-complete={c}
      data-copy-runs={gc.copyThenErase.runs}
    >
      <svg
        ref={svgRef}
        className="v-svg"
        role="img"
        aria-label="GC runs: erase only against copy then erase, over time and per plane"
        onPointerMove={onPointerMove}
        onPointerLeave={onPointerLeave}
      />
      <p className="obs__note" data-testid="gc-counts">
        {formatCount(gc.started)} runs started, {formatCount(gc.complete)} complete
        {gc.openAtEnd ? `, ${formatCount(gc.openAtEnd)} still running at the end` : ''}
        {gc.incomplete ? `, ${formatCount(gc.incomplete)} with a record missing or cut by power` : ''} ·{' '}
        {formatCount(gc.pageCopies)} page copies · {formatCount(gc.erases)} erases
        {gc.nsPerCopy > 0 ? ` · each copy adds ${formatDuration(gc.nsPerCopy)}` : ''}
      </p>
      <div className="v-tooltip" ref={tipRef} hidden />
    </div>
  );
}

function draw(svg: SVGSVGElement, gc: GcSummary, width: number): void {
  select(svg).selectAll('*').remove();
  const root: G = select(svg).append('g');
  const m = { left: 46, right: 14 };
  const iw = width - m.left - m.right;
  let y = 2;
  const legendH = drawLegend(
    root.append('g').attr('transform', `translate(${m.left},${y})`),
    [
      { label: GC_CLASS_STYLE.eraseOnly.label, color: GC_CLASS_STYLE.eraseOnly.color, shape: 'rect' },
      { label: GC_CLASS_STYLE.copyThenErase.label, color: GC_CLASS_STYLE.copyThenErase.color, shape: 'rect' },
    ],
    iw,
  );
  y += legendH + 8;
  y = drawClasses(root, gc, m.left, y, iw) + 14;
  y = drawOverTime(root, gc, m.left, y, iw) + 14;
  y = drawPlanes(root, gc, m.left, y, iw);
  select(svg).attr('viewBox', `0 0 ${width} ${y}`).attr('height', y);
}

function section(root: G, x: number, y: number, text: string): void {
  root.append('text').attr('class', 'v-section-label').attr('x', x).attr('y', y).text(text);
}

/** Swatches after a section label, for the parts of the mean-run bars. */
function keys(root: G, x: number, y: number, items: { label: string; color: string }[]): void {
  let at = x;
  for (const it of items) {
    root.append('rect').attr('x', at).attr('y', y - 8).attr('width', 10).attr('height', 8).attr('rx', 1.5).style('fill', it.color);
    root.append('text').attr('class', 'v-muted-text obs__small').attr('x', at + 14).attr('y', y).text(it.label);
    at += 24 + it.label.length * 5.3;
  }
}

/** The mean run of each class as a bar: the erase, then what came before it. Returns the bottom y. */
function drawClasses(root: G, gc: GcSummary, left: number, top: number, iw: number): number {
  section(root, 4, top + 8, 'MEAN RUN OF EACH KIND');
  keys(root, 160, top + 8, [
    { label: 'the erase', color: GC_CLASS_STYLE.eraseOnly.color },
    { label: 'copying valid pages before it (and waiting for the die)', color: GC_CLASS_STYLE.copyThenErase.color },
  ]);
  const classes: [keyof typeof GC_CLASS_STYLE, GcClass][] = [
    ['eraseOnly', gc.eraseOnly],
    ['copyThenErase', gc.copyThenErase],
  ];
  const xmax = Math.max(1, gc.eraseBaselineNs, ...classes.map(([, c]) => c.meanNs));
  const x = scaleLinear().domain([0, xmax]).nice(5).range([left, left + iw]);
  let y = top + 16;
  const rowH = 34;
  for (const [key, c] of classes) {
    const style = GC_CLASS_STYLE[key];
    const g = root.append('g').attr('class', 'obs__gc-class').attr('data-class', key).attr('data-runs', c.runs);
    const stats =
      c.runs === 0
        ? 'no complete run'
        : `${formatCount(c.runs)} runs · mean ${formatDuration(c.meanNs)} · max ${formatDuration(c.maxNs)} · ${formatDuration(c.totalNs)} in all` +
          (c.copies > 0 ? ` · ${(c.copies / c.runs).toFixed(1)} copies per run` : '');
    g.append('text').attr('x', left).attr('y', y + 9).text(`${style.label}: `).append('tspan').attr('class', 'v-muted-text').text(stats);
    const split = splitMean(c, gc.eraseBaselineNs);
    const barY = y + 14;
    g.append('rect').attr('class', 'v-bar-track').attr('x', left).attr('y', barY).attr('width', iw).attr('height', 12).attr('rx', 2);
    if (c.runs > 0) {
      const tip = `${style.label}: mean ${formatDuration(c.meanNs)} = erase ${formatDuration(split.eraseNs)} + copying and waiting ${formatDuration(split.restNs)}`;
      g.append('rect')
        .attr('x', x(0))
        .attr('y', barY)
        .attr('width', Math.max(1, x(split.eraseNs) - x(0)))
        .attr('height', 12)
        .style('fill', GC_CLASS_STYLE.eraseOnly.color)
        .attr('data-tip', tip);
      if (split.restNs > 0)
        g.append('rect')
          .attr('x', x(split.eraseNs))
          .attr('y', barY)
          .attr('width', Math.max(1, x(split.eraseNs + split.restNs) - x(split.eraseNs)))
          .attr('height', 12)
          .style('fill', GC_CLASS_STYLE.copyThenErase.color)
          .attr('data-tip', tip);
    }
    y += rowH;
  }
  // The erase baseline: what an erase-only run should cost.
  const bx = x(gc.eraseBaselineNs);
  root
    .append('line')
    .attr('class', 'obs__ref')
    .attr('x1', bx)
    .attr('x2', bx)
    .attr('y1', top + 26)
    .attr('y2', y - 4);
  const axis = root.append('g').attr('class', 'v-axis').attr('transform', `translate(0,${y})`);
  axis.call(
    axisBottom(x)
      .ticks(Math.max(2, Math.floor(iw / 90)))
      .tickFormat((v) => formatDuration(Number(v)))
      .tickSizeOuter(0),
  );
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', Math.min(left + iw, bx + 4))
    .attr('y', y + 30)
    .attr('text-anchor', bx > left + iw - 160 ? 'end' : 'start')
    .text(`erase baseline (command + tBERS) ${formatDuration(gc.eraseBaselineNs)}`);
  return y + 32;
}

/** Average planes inside a run per time bin, stacked by class. Returns the bottom y. */
function drawOverTime(root: G, gc: GcSummary, left: number, top: number, iw: number): number {
  section(root, 4, top + 8, 'PLANES INSIDE A GC RUN, OVER TIME (AVERAGE PER BIN)');
  const bins = gc.overTime;
  const h = 96;
  const y0 = top + 16 + h;
  if (bins.length === 0) {
    root.append('text').attr('class', 'v-empty').attr('x', left + iw / 2).attr('y', top + 16 + h / 2).attr('text-anchor', 'middle').text('No GC run in the records');
    return y0;
  }
  const t0 = bins[0]!.t0;
  const t1 = bins[bins.length - 1]!.t1;
  const x = scaleLinear().domain([t0, t1]).range([left, left + iw]);
  const ymax = Math.max(1, max(bins, (b) => b.eraseOnlyPlanes + b.copyPlanes) ?? 0);
  const y = scaleLinear().domain([0, ymax]).nice(4).range([y0, top + 16]);
  root
    .append('g')
    .attr('class', 'v-gridlines')
    .attr('transform', `translate(${left},0)`)
    .call(axisLeft(y).ticks(4).tickSize(-iw).tickFormat(() => ''));
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(${left},0)`)
    .call(axisLeft(y).ticks(4).tickFormat((v) => formatCount(Number(v))).tickSizeOuter(0));
  const g = root.append('g').attr('class', 'obs__gc-time');
  for (const b of bins) {
    const bx = x(b.t0);
    const bw = Math.max(1, x(b.t1) - x(b.t0) - 1);
    const tip =
      `${formatDuration(b.t0)} – ${formatDuration(b.t1)}\n` +
      `planes in copy-then-erase runs: ${b.copyPlanes.toFixed(1)} (${b.copyRuns} started)\n` +
      `planes in erase-only runs: ${b.eraseOnlyPlanes.toFixed(1)} (${b.eraseOnlyRuns} started)`;
    g.append('rect')
      .attr('class', 'obs__hit')
      .attr('x', bx)
      .attr('y', top + 16)
      .attr('width', bw + 1)
      .attr('height', h)
      .attr('data-tip', tip);
    if (b.eraseOnlyPlanes > 0)
      g.append('rect')
        .attr('x', bx)
        .attr('y', y(b.eraseOnlyPlanes))
        .attr('width', bw)
        .attr('height', y0 - y(b.eraseOnlyPlanes))
        .style('fill', GC_CLASS_STYLE.eraseOnly.color)
        .attr('data-tip', tip);
    if (b.copyPlanes > 0)
      g.append('rect')
        .attr('x', bx)
        .attr('y', y(b.eraseOnlyPlanes + b.copyPlanes))
        .attr('width', bw)
        .attr('height', y(b.eraseOnlyPlanes) - y(b.eraseOnlyPlanes + b.copyPlanes))
        .style('fill', GC_CLASS_STYLE.copyThenErase.color)
        .attr('data-tip', tip);
  }
  const ticks = x.ticks(Math.max(2, Math.floor(iw / 90)));
  const fmt = timeTickFormatter(t0, t1, ticks.length > 1 ? ticks[1]! - ticks[0]! : t1 - t0);
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(0,${y0})`)
    .call(axisBottom(x).tickValues(ticks).tickFormat((v) => fmt(Number(v))).tickSizeOuter(0));
  root.append('text').attr('class', 'v-axis-title').attr('x', left + iw).attr('y', y0 + 30).attr('text-anchor', 'end').text('simulated time');
  return y0 + 32;
}

/** Complete runs per plane, stacked by class. Returns the bottom y. */
function drawPlanes(root: G, gc: GcSummary, left: number, top: number, iw: number): number {
  section(root, 4, top + 8, 'COMPLETE RUNS PER PLANE (COUNT)');
  const planes = gc.byPlane;
  const h = 64;
  const y0 = top + 16 + h;
  if (planes.length === 0) {
    root
      .append('text')
      .attr('class', 'v-empty')
      .attr('x', left + iw / 2)
      .attr('y', top + 16 + h / 2)
      .attr('text-anchor', 'middle')
      .text(gc.started > 0 ? 'No run has ended yet' : 'No GC run in the records');
    return y0 + 8;
  }
  const x = scaleBand<number>()
    .domain(planes.map((p) => p.plane))
    .range([left, left + iw])
    .paddingInner(planes.length > 40 ? 0.15 : 0.3);
  const ymax = Math.max(1, max(planes, (p) => p.eraseOnlyRuns + p.copyRuns) ?? 0);
  const y = scaleLinear().domain([0, ymax]).nice(3).range([y0, top + 16]);
  // Run counts are whole numbers: no 0.5 ticks.
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(${left},0)`)
    .call(axisLeft(y).tickValues(y.ticks(3).filter(Number.isInteger)).tickFormat((v) => formatCount(Number(v))).tickSizeOuter(0));
  const g = root.append('g').attr('class', 'obs__gc-planes');
  for (const p of planes) {
    const bx = x(p.plane) ?? left;
    const tip =
      `plane ${p.plane}: ${p.eraseOnlyRuns + p.copyRuns} complete runs\n` +
      `erase only: ${p.eraseOnlyRuns}${p.eraseOnlyRuns ? `, ${formatDuration(p.eraseOnlyNs)} in all` : ''}\n` +
      `copy then erase: ${p.copyRuns}${p.copyRuns ? `, ${formatDuration(p.copyNs)} in all, ${formatCount(p.copies)} copies` : ''}`;
    if (p.eraseOnlyRuns)
      g.append('rect')
        .attr('x', bx)
        .attr('y', y(p.eraseOnlyRuns))
        .attr('width', x.bandwidth())
        .attr('height', y0 - y(p.eraseOnlyRuns))
        .style('fill', GC_CLASS_STYLE.eraseOnly.color)
        .attr('data-tip', tip);
    if (p.copyRuns)
      g.append('rect')
        .attr('x', bx)
        .attr('y', y(p.eraseOnlyRuns + p.copyRuns))
        .attr('width', x.bandwidth())
        .attr('height', y(p.eraseOnlyRuns) - y(p.eraseOnlyRuns + p.copyRuns))
        .style('fill', GC_CLASS_STYLE.copyThenErase.color)
        .attr('data-tip', tip);
  }
  // Label a handful of planes: every one would not fit.
  const step = Math.max(1, Math.ceil(planes.length / Math.max(1, Math.floor(iw / 36))));
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(0,${y0})`)
    .call(
      axisBottom(x)
        .tickValues(planes.filter((_, i) => i % step === 0).map((p) => p.plane))
        .tickSizeOuter(0),
    );
  root.append('text').attr('class', 'v-axis-title').attr('x', left + iw).attr('y', y0 + 30).attr('text-anchor', 'end').text('plane');
  return y0 + 34;
}
