import { useCallback, useLayoutEffect, useMemo, useRef, type PointerEvent } from 'react';
import {
  axisBottom,
  scaleLinear,
  select,
  zoom as d3zoom,
  zoomIdentity,
  zoomTransform,
  type D3ZoomEvent,
  type ScaleLinear,
  type ZoomBehavior,
} from 'd3';
import type { DeviceInfo, TimelineEvent, TimelineKind } from '../bridge/protocol';
import { TIMELINE_COLORS } from './colors';
import { formatDuration, timeTickFormatter } from './format';
import { useElementWidth } from './hooks';
import { laneIndexOf, packLane, timelineLanes, transformForDomain, type Lane, type PackedRun } from './layout';
import { drawLegend, placeTooltip, type G } from './svgUtil';

export interface EventTimelineProps {
  events: TimelineEvent[];
  nowNs: number;
  device: DeviceInfo;
  /** At most this many plane lanes; more planes are grouped (default 14). */
  maxPlaneLanes?: number;
}

const KINDS: TimelineKind[] = ['gc', 'erase', 'block_retired', 'wear_level', 'checkpoint', 'power_fail', 'recovery_step'];
const INSTANT_KINDS = new Set<TimelineKind>(['erase', 'block_retired', 'wear_level', 'checkpoint', 'power_fail']);

interface Prepared {
  lanes: Lane[];
  starts: Float64Array;
  ends: Float64Array;
  /** Per lane, per kind (not the power lane's kinds): indices in start order. */
  groups: { lane: number; kind: TimelineKind; order: number[] }[];
  recovery: number[];
  powerFails: number[];
  maxEnd: number;
  recoveryCount: number;
}

interface Parts {
  width: number;
  height: number;
  m: { top: number; right: number; bottom: number; left: number };
  laneTop: number[];
  laneH: number[];
  xAxis: G;
  evLayer: G;
  powerLayer: G;
  labelLayer: G;
  nowLine: SVGLineElement;
  zoom: ZoomBehavior<SVGSVGElement, unknown>;
}

interface RunDatum extends PackedRun {
  kind: TimelineKind;
  y: number;
  h: number;
}

/**
 * Lanes of flash-management events over simulated time: one per plane (or
 * group of planes) for GC (bars), erases, retirements and wear leveling
 * (ticks); "device" for mapping checkpoints; "power" for power failures and
 * each recovery step (a labelled bar with its duration). Wheel zooms the time
 * axis, drag pans, "Reset zoom" returns to the whole run (which then follows
 * the present). Events closer than a pixel merge into one mark per lane and
 * kind, so the SVG stays small at any zoom; recovery steps are always drawn
 * individually (data-kind="recovery_step", data-label).
 */
export function EventTimeline({ events, nowNs, device, maxPlaneLanes }: EventTimelineProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(wrapRef);
  const parts = useRef<Parts | null>(null);
  /** The pinned view [t0, t1] (ns), or null to show the whole run. */
  const view = useRef<[number, number] | null>(null);
  const suppress = useRef(false);
  const planes = Math.max(1, device.planes);
  const laneLimit = maxPlaneLanes ?? 14;

  const lanes = useMemo(() => timelineLanes(planes, laneLimit), [planes, laneLimit]);
  const prepared = useMemo(() => prepare(events, lanes), [events, events.length, lanes]);
  const latest = useRef({ prepared, events, nowNs });
  latest.current = { prepared, events, nowNs };

  const baseDomain = useCallback((): [number, number] => {
    const { prepared: p, nowNs: now } = latest.current;
    return [0, Math.max(1000, now, p.maxEnd)];
  }, []);

  const redraw = useCallback(() => {
    const pt = parts.current;
    if (!pt) return;
    const { prepared: p, events: evs, nowNs: now } = latest.current;
    const base = baseDomain();
    let dom = view.current ?? base;
    // Keep d3-zoom's transform in step with the view: the base domain grows
    // as the run goes on, and a pinned view must stay where it is.
    let t = { k: 1, x: 0 };
    if (view.current) {
      const v0 = Math.max(base[0], dom[0]);
      const v1 = Math.min(base[1], dom[1]);
      dom = v1 > v0 ? [v0, v1] : base;
      t = transformForDomain(base[0], base[1], dom[0], dom[1], pt.m.left, pt.width - pt.m.right);
    }
    const svg = svgRef.current!;
    const cur = zoomTransform(svg);
    if (Math.abs(cur.k - t.k) > 1e-9 * t.k || Math.abs(cur.x - t.x) > 0.01) {
      suppress.current = true;
      select(svg).call(pt.zoom.transform, zoomIdentity.translate(t.x, 0).scale(t.k));
      suppress.current = false;
    }
    const x = scaleLinear().domain(dom).range([pt.m.left, pt.width - pt.m.right]);
    drawFrame(pt, p, evs, x, now);
  }, [baseDomain]);

  // Structure: on size or lane changes.
  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const pt = build(svg, lanes, Math.max(260, width));
    parts.current = pt;
    pt.zoom.on('zoom', (ev: D3ZoomEvent<SVGSVGElement, unknown>) => {
      if (suppress.current) return;
      const base = baseDomain();
      const bx = scaleLinear().domain(base).range([pt.m.left, pt.width - pt.m.right]);
      const t = ev.transform;
      view.current = t.k <= 1.000001 && Math.abs(t.x) < 0.5 ? null : (t.rescaleX(bx).domain() as [number, number]);
      redraw();
      hideTip();
    });
    select(svg).call(pt.zoom).on('dblclick.zoom', null);
    redraw();
    return () => {
      select(svg).on('.zoom', null);
    };
  }, [width, lanes, redraw, baseDomain]);

  // Data: per frame.
  useLayoutEffect(() => {
    redraw();
  }, [prepared, nowNs, redraw]);

  const hideTip = () => {
    if (tipRef.current) tipRef.current.hidden = true;
  };

  const setView = (v: [number, number] | null) => {
    const pt = parts.current;
    const svg = svgRef.current;
    if (!pt || !svg) return;
    view.current = v;
    redraw();
    hideTip();
  };

  const fitRecovery = () => {
    const { prepared: p } = latest.current;
    const idx = [...p.recovery, ...p.powerFails];
    if (idx.length === 0) return;
    let a = Infinity;
    let b = -Infinity;
    for (const i of idx) {
      a = Math.min(a, p.starts[i]!);
      b = Math.max(b, p.ends[i]!);
    }
    const pad = Math.max(1000, (b - a) * 0.06);
    setView([Math.max(0, a - pad), b + pad]);
  };

  const onMove = (ev: PointerEvent<SVGSVGElement>) => {
    const tip = tipRef.current;
    const wrap = wrapRef.current;
    if (!tip || !wrap || ev.buttons) return;
    const target = ev.target as Element;
    const d = target.classList?.contains('v-tl-ev') ? (select(target).datum() as RunDatum | undefined) : undefined;
    if (!d) {
      tip.hidden = true;
      return;
    }
    tip.textContent = describe(d, latest.current.events);
    tip.hidden = false;
    const r = wrap.getBoundingClientRect();
    placeTooltip(tip, ev.clientX - r.left, ev.clientY - r.top, r.width, r.height);
  };

  return (
    <div
      className="v-view v-tl"
      ref={wrapRef}
      data-recovery-steps={prepared.recoveryCount}
      data-events={events.length}
    >
      <div className="v-toolbar">
        <button type="button" className="v-btn" onClick={() => setView(null)} title="Show the whole run again">
          Reset zoom
        </button>
        <button
          type="button"
          className="v-btn"
          onClick={fitRecovery}
          disabled={prepared.recoveryCount === 0 && prepared.powerFails.length === 0}
          title="Zoom to the power failure and the recovery steps"
        >
          Zoom to recovery
        </button>
        <span className="v-tl__hint">Scroll to zoom time · drag to pan · hover for details</span>
      </div>
      <svg
        ref={svgRef}
        className="v-svg"
        role="img"
        aria-label="Event timeline: garbage collection, erases, checkpoints, power failure and recovery"
        onPointerMove={onMove}
        onPointerLeave={hideTip}
      />
      <div className="v-tooltip" ref={tipRef} hidden />
    </div>
  );
}

function prepare(events: TimelineEvent[], lanes: Lane[]): Prepared {
  const n = events.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const buckets = new Map<number, number[]>();
  const recovery: number[] = [];
  const powerFails: number[] = [];
  let maxEnd = 0;
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    starts[i] = e.startNs;
    ends[i] = Math.max(e.startNs, e.endNs);
    if (ends[i]! > maxEnd) maxEnd = ends[i]!;
    if (e.kind === 'recovery_step') {
      recovery.push(i);
      continue;
    }
    if (e.kind === 'power_fail') {
      powerFails.push(i);
      continue;
    }
    const lane = laneIndexOf(e.kind, e.unit, lanes);
    const key = lane * KINDS.length + Math.max(0, KINDS.indexOf(e.kind));
    let list = buckets.get(key);
    if (!list) buckets.set(key, (list = []));
    list.push(i);
  }
  const groups: Prepared['groups'] = [];
  // GC bars first so instant ticks draw on top of them.
  const keys = [...buckets.keys()].sort((a, b) => {
    const ka = a % KINDS.length === 0 ? 0 : 1;
    const kb = b % KINDS.length === 0 ? 0 : 1;
    return ka - kb || a - b;
  });
  for (const key of keys) {
    const order = buckets.get(key)!;
    order.sort((a, b) => starts[a]! - starts[b]! || a - b);
    groups.push({ lane: Math.floor(key / KINDS.length), kind: KINDS[key % KINDS.length]!, order });
  }
  recovery.sort((a, b) => starts[a]! - starts[b]! || a - b);
  return { lanes, starts, ends, groups, recovery, powerFails, maxEnd, recoveryCount: recovery.length };
}

function build(svg: SVGSVGElement, lanes: Lane[], width: number): Parts {
  const root = select(svg);
  root.selectAll('*').remove();
  const legendG = root.append('g').attr('transform', 'translate(4,2)');
  const legendH = drawLegend(
    legendG,
    KINDS.map((k) => ({
      label: TIMELINE_COLORS[k].label,
      color: `var(${TIMELINE_COLORS[k].cssVar})`,
      shape: INSTANT_KINDS.has(k) ? ('tick' as const) : ('rect' as const),
    })),
    width - 8,
  );
  const longest = Math.max(...lanes.map((l) => l.label.length));
  const m = { top: legendH + 8, right: 12, bottom: 22, left: Math.min(110, 12 + longest * 5.6) };
  const n = lanes.length;
  const laneH0 = n <= 4 ? 26 : n <= 8 ? 20 : 15;
  const laneTop: number[] = [];
  const laneH: number[] = [];
  let y = m.top;
  for (const l of lanes) {
    const h = l.kind === 'power' ? Math.max(laneH0, 24) : laneH0;
    laneTop.push(y);
    laneH.push(h);
    y += h;
  }
  const height = y + m.bottom;
  root.attr('viewBox', `0 0 ${width} ${height}`).attr('height', height);

  const bg = root.append('g');
  lanes.forEach((l, i) => {
    bg.append('rect')
      .attr('class', 'v-tl-lane-bg')
      .attr('data-alt', i % 2)
      .attr('x', m.left)
      .attr('y', laneTop[i]!)
      .attr('width', width - m.left - m.right)
      .attr('height', laneH[i]!);
    bg.append('text')
      .attr('class', 'v-tl-lane-label')
      .attr('x', m.left - 6)
      .attr('y', laneTop[i]! + laneH[i]! / 2 + 3.5)
      .attr('text-anchor', 'end')
      .text(l.label);
  });
  const clipId = `v-tl-clip-${Math.random().toString(36).slice(2)}`;
  root
    .append('clipPath')
    .attr('id', clipId)
    .append('rect')
    .attr('x', m.left)
    .attr('y', m.top)
    .attr('width', Math.max(0, width - m.left - m.right))
    .attr('height', y - m.top);
  const plot = root.append('g').attr('clip-path', `url(#${clipId})`);
  const powerLayer = plot.append('g').attr('class', 'v-tl-power');
  const evLayer = plot.append('g').attr('class', 'v-tl-events');
  const labelLayer = plot.append('g').attr('class', 'v-tl-labels');
  const nowLine = plot
    .append('line')
    .attr('class', 'v-tl-now')
    .attr('y1', m.top)
    .attr('y2', y)
    .node()!;
  const xAxis = root.append('g').attr('class', 'v-axis').attr('transform', `translate(0,${y})`);
  const zoom = d3zoom<SVGSVGElement, unknown>()
    .scaleExtent([1, 1e9])
    .extent([
      [m.left, 0],
      [width - m.right, height],
    ])
    .translateExtent([
      [m.left, -Infinity],
      [width - m.right, Infinity],
    ]);
  return { width, height, m, laneTop, laneH, xAxis, evLayer, powerLayer, labelLayer, nowLine, zoom };
}

function drawFrame(
  pt: Parts,
  p: Prepared,
  events: TimelineEvent[],
  x: ScaleLinear<number, number>,
  nowNs: number,
): void {
  const [d0, d1] = x.domain() as [number, number];
  const iw = pt.width - pt.m.left - pt.m.right;
  const nTicks = Math.max(2, Math.floor(iw / 100));
  const ticks = x.ticks(nTicks);
  const fmt = timeTickFormatter(d0, d1, ticks.length > 1 ? ticks[1]! - ticks[0]! : d1 - d0);
  pt.xAxis.call(
    axisBottom(x)
      .ticks(nTicks)
      .tickFormat((v) => fmt(Number(v)))
      .tickSizeOuter(0),
  );

  // Offset x so packLane's culling works in plot coordinates (0..iw).
  const xs = (ns: number) => x(ns) - pt.m.left;
  const runs: RunDatum[] = [];
  for (const g of p.groups) {
    const top = pt.laneTop[g.lane]!;
    const h = pt.laneH[g.lane]!;
    let yy = top + 2;
    let hh = h - 4;
    if (g.kind === 'erase') {
      yy = top + h / 2;
      hh = h / 2 - 2;
    } else if (g.kind === 'wear_level') {
      yy = top + 2;
      hh = h / 2 - 2;
    }
    const minW = g.kind === 'gc' ? 2 : 1.5;
    for (const r of packLane(g.order, p.starts, p.ends, xs, iw, minW, g.kind === 'gc' ? 1 : 0.5)) {
      runs.push({ ...r, kind: g.kind, y: yy, h: hh });
    }
  }
  // Power failures: full-height ticks in the power lane.
  const powerLane = pt.laneTop.length - 1;
  const pTop = pt.laneTop[powerLane]!;
  const pH = pt.laneH[powerLane]!;
  for (const i of p.powerFails) {
    const cx = x(p.starts[i]!) - pt.m.left;
    runs.push({ x0: cx - 1.5, x1: cx + 1.5, startNs: p.starts[i]!, endNs: p.starts[i]!, items: [i], kind: 'power_fail', y: pTop + 1, h: pH - 2 });
  }
  select(pt.evLayer.node()!)
    .selectAll<SVGRectElement, RunDatum>('rect')
    .data(runs)
    .join('rect')
    .attr('class', 'v-tl-ev')
    .attr('data-kind', (d) => d.kind)
    .attr('data-count', (d) => d.items.length)
    .attr('x', (d) => (pt.m.left + d.x0).toFixed(1))
    .attr('width', (d) => Math.max(1, d.x1 - d.x0).toFixed(1))
    .attr('y', (d) => d.y)
    .attr('height', (d) => Math.max(1, d.h));

  // Recovery steps: every one drawn (they are few), labelled when wide enough.
  const steps: RunDatum[] = p.recovery.map((i) => {
    const x0 = x(p.starts[i]!) - pt.m.left;
    const x1 = Math.max(x0 + 2, x(p.ends[i]!) - pt.m.left);
    return { x0, x1, startNs: p.starts[i]!, endNs: p.ends[i]!, items: [i], kind: 'recovery_step', y: pTop + 3, h: pH - 6 };
  });
  select(pt.powerLayer.node()!)
    .selectAll<SVGRectElement, RunDatum>('rect')
    .data(steps)
    .join('rect')
    .attr('class', 'v-tl-ev')
    .attr('data-kind', 'recovery_step')
    .attr('data-label', (d) => events[d.items[0]!]?.label ?? '')
    .attr('data-duration-ns', (d) => d.endNs - d.startNs)
    .attr('x', (d) => clampPx(pt.m.left + d.x0, iw, pt.m.left).toFixed(1))
    .attr('width', (d) => {
      const a = clampPx(pt.m.left + d.x0, iw, pt.m.left);
      const b = clampPx(pt.m.left + d.x1, iw, pt.m.left);
      return Math.max(2, b - a).toFixed(1);
    })
    .attr('y', (d) => d.y)
    .attr('height', (d) => d.h)
    .attr('rx', 2);
  const labels = steps
    .map((d) => {
      const e = events[d.items[0]!];
      const a = Math.max(0, d.x0);
      const b = Math.min(iw, d.x1);
      const room = b - a - 6;
      const full = `${e?.label ?? ''} · ${formatDuration(d.endNs - d.startNs)}`;
      const short = formatDuration(d.endNs - d.startNs);
      const text = room >= full.length * 5.6 ? full : room >= short.length * 5.6 ? short : '';
      return { text, x: pt.m.left + a + 3, y: d.y + d.h / 2 + 3.5 };
    })
    .filter((l) => l.text);
  select(pt.labelLayer.node()!)
    .selectAll<SVGTextElement, (typeof labels)[number]>('text')
    .data(labels)
    .join('text')
    .attr('class', 'v-tl-step-label')
    .attr('x', (d) => d.x)
    .attr('y', (d) => d.y)
    .text((d) => d.text);

  const nx = x(nowNs);
  const nowVisible = nowNs > 0 && nx >= pt.m.left && nx <= pt.width - pt.m.right;
  pt.nowLine.setAttribute('x1', String(nx));
  pt.nowLine.setAttribute('x2', String(nx));
  pt.nowLine.style.display = nowVisible ? '' : 'none';
}

function clampPx(v: number, iw: number, left: number): number {
  return Math.min(left + iw + 2, Math.max(left - 2, v));
}

function describe(d: RunDatum, events: TimelineEvent[]): string {
  const first = events[d.items[0]!];
  if (!first) return '';
  if (d.items.length === 1) {
    const dur = first.endNs - first.startNs;
    const when =
      dur > 0 ? `start ${formatDuration(first.startNs)} · duration ${formatDuration(dur)}` : `at ${formatDuration(first.startNs)}`;
    const plane = first.unit >= 0 && first.kind !== 'recovery_step' && first.kind !== 'power_fail' && first.kind !== 'checkpoint'
      ? ` (plane ${first.unit})`
      : '';
    return `${first.label}${plane}\n${first.detail}\n${when}`;
  }
  const planes = new Set<number>();
  for (const i of d.items) {
    const u = events[i]?.unit ?? -1;
    if (u >= 0) planes.add(u);
  }
  const planeList = [...planes].sort((a, b) => a - b);
  const where =
    planeList.length === 0
      ? ''
      : `\n${planeList.length === 1 ? 'plane' : 'planes'} ${planeList.slice(0, 8).join(', ')}${planeList.length > 8 ? ', …' : ''}`;
  return (
    `${d.items.length} × ${TIMELINE_COLORS[d.kind].label} (overlapping or under a pixel apart)` +
    where +
    `\n${formatDuration(d.startNs)} – ${formatDuration(d.endNs)}` +
    `\nfirst: ${first.label}`
  );
}
