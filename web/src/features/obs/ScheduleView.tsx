// The channel/way schedule around one slow request (a small Gantt chart, as
// in the instrumented-SSD paper's request figures): one lane per die it
// depended on, one row per plane, every op that occupied the die while the
// request waited, its own ops outlined, and GC runs on the planes shaded.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { axisBottom, scaleLinear, select, type Selection } from 'd3';
import type { DeviceInfo } from '../../bridge/protocol';
import { formatDuration, timeTickFormatter } from '../../views/format';
import { useElementWidth } from '../../views/hooks';
import { PURPOSE_STYLE } from './palette';
import { laneLabel, occupancy, purposeGroup, scheduleDomain, PURPOSE_GROUPS, type RequestSchedule, type ScheduleSeg } from './schedule';
import { useTip } from './useTip';

type G = Selection<SVGGElement, unknown, null, undefined>;

const ROW_H = 10;
const ROW_GAP = 2;
const LANE_PAD = 4;

/** The Gantt of one request's schedule (D3, one exportable SVG) with a one-line summary above it. */
export function ScheduleView({ schedule, device }: { schedule: RequestSchedule; device: DeviceInfo }) {
  const { wrapRef, tipRef, onPointerMove, onPointerLeave } = useTip();
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(wrapRef, 800);
  useLayoutEffect(() => {
    if (svgRef.current) draw(svgRef.current, schedule, Math.max(1, device.planes_per_die), Math.max(360, width));
  }, [schedule, device.planes_per_die, width]);
  const occ = useMemo(() => occupancy(schedule), [schedule]);
  const wait = schedule.toNs - schedule.fromNs;
  const write = schedule.op === 'write';
  return (
    <div className="v-view obs__chart" ref={wrapRef} data-testid="schedule" data-request-id={schedule.id} data-lanes={schedule.lanes.length}>
      <p className="obs__note obs__note--lead">
        {write
          ? `Write ${schedule.id} waited ${formatDuration(wait)} for a buffer slot; each slot frees when a flush program ends. `
          : `Read ${schedule.id} waited ${formatDuration(wait)} for its data from flash. `}
        {occ.length > 0
          ? `Die time in the wait: ${occ
              .slice(0, 4)
              .map((o) => `${PURPOSE_STYLE[o.group].label} ${formatDuration(o.ns)}`)
              .join(', ')}.`
          : 'Its dies were idle while it waited.'}
        {schedule.diesTotal > schedule.lanes.length ? ` Showing ${schedule.lanes.length} of ${schedule.diesTotal} dies.` : ''}
      </p>
      <svg
        ref={svgRef}
        className="v-svg"
        role="img"
        aria-label={`Flash schedule of the dies request ${schedule.id} waited for`}
        onPointerMove={onPointerMove}
        onPointerLeave={onPointerLeave}
      />
      <div className="v-tooltip" ref={tipRef} hidden />
    </div>
  );
}

interface LegendEntry {
  label: string;
  color: string;
  kind: 'fill' | 'outline' | 'band';
}

/** A one-line legend that wraps; returns its height. */
function legend(g: G, items: LegendEntry[], maxW: number): number {
  let x = 0;
  let y = 0;
  for (const it of items) {
    const w = 22 + it.label.length * 5.8 + 12;
    if (x > 0 && x + w > maxW) {
      x = 0;
      y += 15;
    }
    const e = g.append('g').attr('transform', `translate(${x},${y})`);
    const r = e.append('rect').attr('x', 0).attr('y', 2).attr('width', 16).attr('height', 8).attr('rx', 1.5);
    if (it.kind === 'fill') r.style('fill', it.color);
    else if (it.kind === 'band') r.attr('class', 'obs__gcband');
    else r.attr('class', 'obs__seg-mark').style('fill', 'var(--v-surface)');
    e.append('text').attr('x', 20).attr('y', 9.5).text(it.label);
    x += w;
  }
  return y + 15;
}

function segTip(s: ScheduleSeg, laneName: string, from: number): string {
  const what = `${s.kind} (${s.purpose})`;
  const head =
    s.role === 'own'
      ? 'this request’s read'
      : s.role === 'freed'
        ? 'the flush whose end freed this write’s last buffer slot'
        : s.count > 1
          ? `${s.count} ops, ${s.mixed ? 'mostly ' : ''}${what}`
          : what;
  const rel = (t: number) => `${t >= from ? '+' : '−'}${formatDuration(Math.abs(t - from))}`;
  return `${laneName}, plane ${s.plane}: ${head}${s.role !== 'other' ? `, ${what}` : ''}\n${rel(s.startNs)} → ${rel(s.endNs)} (${formatDuration(s.endNs - s.startNs)})`;
}

function draw(svg: SVGSVGElement, s: RequestSchedule, planes: number, width: number): void {
  select(svg).selectAll('*').remove();
  const root: G = select(svg).append('g');
  const m = { top: 4, right: 12, bottom: 34, left: 96 };
  const iw = width - m.left - m.right;
  const groups = new Set(s.lanes.flatMap((l) => l.segments.map((g) => purposeGroup(g.purpose))));
  const items: LegendEntry[] = PURPOSE_GROUPS.filter((g) => groups.has(g)).map((g) => ({ label: PURPOSE_STYLE[g].label, color: PURPOSE_STYLE[g].color, kind: 'fill' }));
  items.push({ label: s.op === 'write' ? 'freed its last slot' : 'its own read', color: '', kind: 'outline' });
  if (s.gc.length > 0) items.push({ label: 'GC run on the plane', color: '', kind: 'band' });
  const legendH = legend(root.append('g').attr('transform', `translate(${m.left},${m.top})`), items, iw);

  const [d0, d1] = scheduleDomain(s);
  const x = scaleLinear().domain([d0, d1]).range([m.left, m.left + iw]);
  const cx = (t: number) => x(Math.max(d0, Math.min(d1, t)));
  const top = m.top + legendH + 18;
  const laneH = planes * ROW_H + (planes - 1) * ROW_GAP + 2 * LANE_PAD;
  const bottom = top + s.lanes.length * laneH;
  const height = bottom + m.bottom;
  select(svg).attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);

  // The wait itself, above the lanes.
  root
    .append('rect')
    .attr('class', 'obs__wait')
    .attr('x', x(s.fromNs))
    .attr('y', top - 12)
    .attr('width', Math.max(1, x(s.toNs) - x(s.fromNs)))
    .attr('height', 6)
    .attr('data-tip', `the request waited ${formatDuration(s.toNs - s.fromNs)}: translated → ${s.op === 'write' ? 'buffer slot' : 'data ready'}`);
  root
    .append('text')
    .attr('class', 'v-muted-text obs__small')
    .attr('x', m.left - 6)
    .attr('y', top - 6)
    .attr('text-anchor', 'end')
    .text(s.op === 'write' ? 'waiting for a slot' : 'waiting for flash');

  s.lanes.forEach((lane, i) => {
    const ly = top + i * laneH;
    const name = laneLabel(lane);
    const g = root.append('g').attr('class', 'obs__lane').attr('data-die', lane.die);
    g.append('rect')
      .attr('class', 'v-tl-lane-bg')
      .attr('data-alt', i % 2)
      .attr('x', m.left)
      .attr('y', ly)
      .attr('width', iw)
      .attr('height', laneH);
    if (i > 0 && s.lanes[i - 1]!.channel !== lane.channel)
      g.append('line').attr('class', 'obs__chsep').attr('x1', 4).attr('x2', m.left + iw).attr('y1', ly + 0.5).attr('y2', ly + 0.5);
    g.append('text')
      .attr('class', 'obs__lanelabel')
      .attr('x', m.left - 6)
      .attr('y', ly + laneH / 2 + 3.5)
      .attr('text-anchor', 'end')
      .text(name)
      .append('title')
      .text(`die ${lane.die}`);
    const rowY = (plane: number) => ly + LANE_PAD + plane * (ROW_H + ROW_GAP);
    // GC runs on the die's planes, behind the ops.
    for (const run of s.gc) {
      if (run.die !== lane.die) continue;
      const p = run.plane % planes;
      const end = run.endNs ?? d1;
      if (end <= d0 || run.startNs >= d1) continue;
      g.append('rect')
        .attr('class', 'obs__gcband')
        .attr('x', cx(run.startNs))
        .attr('y', rowY(p) - 1)
        .attr('width', Math.max(1, cx(end) - cx(run.startNs)))
        .attr('height', ROW_H + 2)
        .attr(
          'data-tip',
          `GC on plane ${run.plane}: victim block ${run.victim}, ${run.validPages} valid pages to copy` +
            `${run.copies === null ? ', still running when the records end' : `, ${run.copies} copied, ${formatDuration((run.endNs ?? 0) - run.startNs)} in all`}`,
        );
    }
    for (const seg of lane.segments) {
      if (seg.endNs <= d0 || seg.startNs >= d1) continue;
      const rect = g
        .append('rect')
        .attr('class', `obs__seg${seg.role !== 'other' ? ' obs__seg-mark' : ''}`)
        .attr('data-role', seg.role)
        .attr('data-purpose', seg.purpose)
        .attr('x', cx(seg.startNs))
        .attr('y', rowY(seg.plane % planes))
        .attr('width', Math.max(1.5, cx(seg.endNs) - cx(seg.startNs)))
        .attr('height', ROW_H)
        .style('fill', PURPOSE_STYLE[purposeGroup(seg.purpose)].color)
        .attr('data-tip', segTip(seg, name, s.fromNs));
      if (seg.mixed) rect.style('fill-opacity', '0.6');
    }
  });

  // When it started waiting and when it was served.
  for (const [t, label] of [
    [s.fromNs, 'translated'],
    [s.toNs, s.op === 'write' ? 'slot' : 'ready'],
  ] as const) {
    root.append('line').attr('class', 'obs__ref').attr('x1', x(t)).attr('x2', x(t)).attr('y1', top - 14).attr('y2', bottom);
    root
      .append('text')
      .attr('class', 'v-muted-text obs__small')
      .attr('x', x(t))
      .attr('y', top - 15)
      .attr('text-anchor', 'middle')
      .text(label);
  }

  const rel = scaleLinear().domain([d0 - s.fromNs, d1 - s.fromNs]).range([m.left, m.left + iw]);
  const ticks = rel.ticks(Math.max(2, Math.floor(iw / 90)));
  const fmt = timeTickFormatter(d0 - s.fromNs, d1 - s.fromNs, ticks.length > 1 ? ticks[1]! - ticks[0]! : d1 - d0);
  root
    .append('g')
    .attr('class', 'v-axis')
    .attr('transform', `translate(0,${bottom})`)
    .call(
      axisBottom(rel)
        .tickValues(ticks)
        .tickFormat((v) => (Number(v) > 0 ? `+${fmt(Number(v))}` : Number(v) < 0 ? `−${fmt(-Number(v))}` : '0'))
        .tickSizeOuter(0),
    );
  root
    .append('text')
    .attr('class', 'v-axis-title')
    .attr('x', m.left + iw)
    .attr('y', bottom + 30)
    .attr('text-anchor', 'end')
    .text('time since the request was translated');
}
