// The CMB ring: a band around a circle holding the stream bytes between the
// destage head and the host tail, with the credit counter between them. The
// primary is the outer band; each secondary's ring is a thinner band inside.
// Live from the metrics of every frame; the intake queue from xssd_ring.
import { useLayoutEffect, useRef } from 'react';
import { arc } from 'd3';
import { useElementWidth } from '../../views/hooks';
import { resetSvg, type Svg } from './chart';
import { formatBytes } from './format';
import type { XssdMetrics } from './metrics';
import { ringArcs, ringState, type RingState } from './ring';
import { lastRing, type XssdStream } from './stream';

const HEIGHT = 290;
/** Secondaries drawn as inner bands; more are listed only. */
const MAX_INNER = 3;
/** Smallest visible arc (turns) for a stretch that is not empty. */
const MIN_TURN = 0.006;

export interface CmbRingProps {
  x: XssdMetrics;
  stream: XssdStream;
  queueBytes: number;
}

/** The ring of each device: the primary first, then the secondaries (from metrics and their xssd_ring samples). */
function deviceRings(x: XssdMetrics, stream: XssdStream): RingState[] {
  const out = [ringState(x.ringBytes, x.destageDurable, x.creditCounter, x.hostTail)];
  x.secondaries.forEach((s, i) => {
    const tail = Math.max(s.counter, lastRing(stream.ring, i + 1)?.tail ?? 0);
    out.push(ringState(x.ringBytes, s.drainedBytes, s.counter, tail));
  });
  return out;
}

/** The CMB ring of the primary (and its secondaries inside) with the positions and their numbers. */
export function CmbRing({ x, stream, queueBytes }: CmbRingProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = Math.max(600, useElementWidth(wrap));
  const rings = deviceRings(x, stream);
  const primary = rings[0]!;
  const intake = lastRing(stream.ring, 0)?.queue ?? 0;

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, HEIGHT);
    const r = Math.min(124, (HEIGHT - 30) / 2);
    const cx = r + 14;
    const cy = HEIGHT / 2;
    drawRings(svg, rings.slice(0, 1 + MAX_INNER), cx, cy, r);
    svg
      .append('text')
      .attr('x', cx)
      .attr('y', cy - 4)
      .attr('text-anchor', 'middle')
      .attr('class', 'x-ring-centre')
      .text(formatBytes(x.ringBytes));
    svg
      .append('text')
      .attr('x', cx)
      .attr('y', cy + 12)
      .attr('text-anchor', 'middle')
      .attr('class', 'v-muted-text')
      .text(`${x.backing.toUpperCase() || 'CMB'} ring`);
    drawNumbers(svg, cx + r + 22, primary, x, intake, queueBytes, rings.length - 1);
  });

  return (
    <div
      className="v-view x-ring"
      ref={wrap}
      data-testid="xssd-ring"
      data-counter={x.creditCounter}
      data-tail={x.hostTail}
      data-durable={x.destageDurable}
    >
      <svg ref={svgRef} className="v-svg" role="img" aria-label="CMB ring: destage head, credit counter and host tail" />
    </div>
  );
}

function drawRings(svg: Svg, rings: RingState[], cx: number, cy: number, r: number): void {
  const g = svg.append('g').attr('transform', `translate(${cx},${cy})`);
  const tau = 2 * Math.PI;
  rings.forEach((s, i) => {
    const outer = i === 0 ? r : r - 30 - (i - 1) * 16;
    const inner = i === 0 ? r - 24 : outer - 11;
    const band = arc<{ start: number; end: number }>()
      .innerRadius(inner)
      .outerRadius(outer)
      .startAngle((d) => d.start * tau)
      .endAngle((d) => d.end * tau);
    g.append('path').attr('class', 'x-ring-track').attr('d', band({ start: 0, end: 1 }) ?? '');
    for (const a of ringArcs(s)) {
      const end = Math.max(a.end, a.start + MIN_TURN);
      g.append('path')
        .attr('class', `x-ring-arc x-ring-arc--${a.kind}`)
        .attr('d', band({ start: a.start, end }) ?? '')
        .append('title')
        .text(a.kind === 'backlog' ? `persisted, awaiting destage: ${formatBytes(s.backlog)}` : `in flight: ${formatBytes(s.inFlight)}`);
    }
    const marks: [string, number, string][] = [
      ['durable', s.durable.turn, `destage head: ${formatBytes(s.durable.pos)} durable`],
      ['counter', s.counter.turn, `credit counter: ${formatBytes(s.counter.pos)}`],
      ['tail', s.tail.turn, `host tail: ${formatBytes(s.tail.pos)}`],
    ];
    // Radially staggered, so marks at the same position stay visible side by side:
    // the head on the inner third, the counter across the middle, the tail outside.
    const w = outer - inner;
    const span: Record<string, [number, number]> = {
      durable: [inner - 3, inner + w * 0.4],
      counter: [inner + w * 0.3, inner + w * 0.75],
      tail: [inner + w * 0.65, outer + 6],
    };
    for (const [kind, turn, title] of marks) {
      const a = turn * tau;
      const sin = Math.sin(a);
      const cos = -Math.cos(a);
      const [r0, r1] = span[kind]!;
      g.append('line')
        .attr('class', `x-ring-mark x-ring-mark--${kind}`)
        .attr('x1', sin * r0)
        .attr('y1', cos * r0)
        .attr('x2', sin * r1)
        .attr('y2', cos * r1)
        .append('title')
        .text(title);
    }
  });
}

/** The positions and the ring's numbers, one row each, right of the ring. */
function drawNumbers(svg: Svg, x0: number, s: RingState, x: XssdMetrics, intake: number, queueBytes: number, secondaries: number): void {
  const g = svg.append('g').attr('transform', `translate(${x0},${HEIGHT / 2 - 96})`).attr('class', 'x-ring-legend');
  const rows: [string | null, string, string][] = [
    ['tail', 'host tail (written)', formatBytes(s.tail.pos)],
    ['counter', 'credit counter (persisted)', formatBytes(s.counter.pos)],
    ['durable', 'destage head (on flash)', formatBytes(s.durable.pos)],
    ['inflight', 'in flight (tail − counter)', formatBytes(s.inFlight)],
    ['backlog', 'awaiting destage', formatBytes(s.backlog)],
    [null, 'free', `${formatBytes(s.free)} of ${formatBytes(s.ringBytes)}`],
    [null, 'intake queue now / size', `${formatBytes(intake)} / ${formatBytes(queueBytes)}`],
    [null, 'intake queue peak', formatBytes(x.maxQueueBytes)],
    [null, 'ring-full waits', x.ringFullWaits.toLocaleString('en-US')],
  ];
  if (secondaries > 0) {
    const shown = Math.min(secondaries, MAX_INNER);
    rows.push([null, 'inner bands, outside in', Array.from({ length: shown }, (_, k) => `S${k}`).join(', ') + (secondaries > shown ? ' …' : '')]);
  }
  rows.forEach(([kind, label, value], i) => {
    const y = i * 21;
    if (kind === 'inflight' || kind === 'backlog') {
      g.append('rect').attr('class', `x-ring-arc--${kind}`).attr('x', 0).attr('y', y - 8).attr('width', 14).attr('height', 9).attr('rx', 2);
    } else if (kind) {
      g.append('line').attr('class', `x-ring-mark x-ring-mark--${kind}`).attr('x1', 7).attr('x2', 7).attr('y1', y - 10).attr('y2', y + 2);
    }
    g.append('text').attr('x', 20).attr('y', y).text(label);
    g.append('text').attr('x', 190).attr('y', y).attr('class', 'x-num').text(value);
  });
}
