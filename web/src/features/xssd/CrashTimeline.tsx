// The crash protocol after a power loss: power loss → destage the ring on
// capacitor power → stop at the first gap → reboot → the visible tail, one box
// per step with its time and numbers; under them, the stream around the crash
// with what was acknowledged, dropped and recovered; then the crash report.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { scaleLinear, type ScaleLinear } from 'd3';
import { formatDuration } from '../../views';
import { useElementWidth } from '../../views/hooks';
import { legend, resetSvg, type Svg } from './chart';
import { CRASH_STEPS, crashEpisodes, groupMarks, labelRows, streamLayout, type CrashEpisode, type MarkGroup, type StreamLayout, type ZoneKey } from './crash';
import { exactBytes, formatBytes } from './format';
import type { CrashMetrics } from './metrics';
import type { CrashRecord } from './stream';

const BOX_H = 84;
const GAP = 22;
const BAR_Y = BOX_H + 46;
const ROW = 14;
/** Approximate width of a label character (px, 10.5 px text). */
const CHAR_W = 5.9;

export interface CrashTimelineProps {
  records: readonly CrashRecord[];
  crash: CrashMetrics | null;
  queueBytes: number;
  /** Simulated time now: the model records the reboot's steps ahead, at their due times. */
  nowNs: number;
}

/** The crash protocol of the newest power loss (or a picked one), or how to cause one. */
export function CrashTimeline({ records, crash, queueBytes, nowNs }: CrashTimelineProps) {
  const episodes = useMemo(() => crashEpisodes(records), [records]);
  const [picked, setPicked] = useState<number | null>(null);
  const index = picked !== null && picked < episodes.length ? picked : episodes.length - 1;
  const episode = episodes[index] ?? null;
  // The crash report describes the newest power loss only.
  const report = index === episodes.length - 1 ? crash : null;

  if (!episode && !crash) {
    return (
      <p className="muted x-empty" data-testid="xssd-crash" data-steps={0}>
        No power loss in this run yet. Press <strong>Power fail</strong> (P), or schedule one with{' '}
        <code>faults.power_fail_at_ns</code>, to watch the fast side&apos;s crash protocol.
      </p>
    );
  }
  const reached = episode ? episode.steps.filter((s) => s !== null && s.t <= nowNs).length : 0;
  return (
    <div className="v-view x-crash" data-testid="xssd-crash" data-steps={reached} data-episodes={episodes.length}>
      {episodes.length > 1 ? (
        <div className="v-toolbar">
          <span className="muted">Power loss</span>
          <div className="v-seg" role="group" aria-label="Power loss">
            {episodes.map((e, i) => (
              <button key={e.atNs} type="button" className="v-btn" aria-pressed={i === index} onClick={() => setPicked(i)}>
                {formatDuration(e.atNs)}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      <CrashSvg episode={episode} reached={reached} report={report} queueBytes={queueBytes} />
      {report ? <CrashReport c={report} /> : null}
    </div>
  );
}

interface CrashSvgProps {
  episode: CrashEpisode | null;
  /** Steps reached by now (the rest are still due). */
  reached: number;
  report: CrashMetrics | null;
  queueBytes: number;
}

function CrashSvg({ episode, reached, report, queueBytes }: CrashSvgProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = Math.max(640, useElementWidth(wrap));
  const layout = streamLayout(report, episode, queueBytes);
  const x = scaleLinear().domain(layout.domain).range([70, width - 70]);
  const groups = groupMarks(layout.marks).map((g) => ({ ...g, text: `${g.label} ${formatBytes(g.pos)}` }));
  const rows = labelRows(
    groups.map((g) => x(g.pos)),
    groups.map((g) => g.text.length * CHAR_W),
  );
  const height = BAR_Y + 22 + (Math.max(0, ...rows) + 1) * ROW + 8;

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, height);
    drawSteps(svg, episode, reached, width);
    drawStream(svg, layout, groups, x, rows);
  });

  return (
    <div ref={wrap}>
      <svg ref={svgRef} className="v-svg" role="img" aria-label="Crash protocol steps and the stream around the crash" />
    </div>
  );
}

function drawSteps(svg: Svg, e: CrashEpisode | null, reached: number, width: number): void {
  const n = CRASH_STEPS.length;
  const bw = (width - 8 - (n - 1) * GAP) / n;
  const t0 = e?.atNs ?? 0;
  CRASH_STEPS.forEach((def, i) => {
    const rec = e?.steps[i] ?? null;
    const s = i < reached ? rec : null;
    const x = 4 + i * (bw + GAP);
    const g = svg
      .append('g')
      .attr('transform', `translate(${x},4)`)
      .attr('class', `x-step${s ? '' : ' x-step--pending'}`)
      .attr('data-testid', 'crash-step')
      .attr('data-step', i)
      .attr('data-reached', s ? 'true' : 'false');
    g.append('rect').attr('class', 'x-step-box').attr('width', bw).attr('height', BOX_H).attr('rx', 6);
    // Narrow boxes cut their text rather than spill into the next step.
    const clip = `x-step-clip-${i}-${Math.random().toString(36).slice(2)}`;
    g.append('clipPath').attr('id', clip).append('rect').attr('width', bw - 4).attr('height', BOX_H);
    const body = g.append('g').attr('clip-path', `url(#${clip})`);
    g.append('rect').attr('class', `x-step-band x-step-band--${i}`).attr('width', 5).attr('height', BOX_H).attr('rx', 2);
    body.append('text').attr('class', 'x-step-title').attr('x', 12).attr('y', 17).text(`${i + 1}. ${def.name}`);
    const lines = s
      ? [
          i === 0 ? `at ${formatDuration(s.t)}` : `at ${formatDuration(s.t)} (+${formatDuration(s.t - t0)})`,
          `${def.a}: ${formatBytes(s.pos)}`,
          `${def.b}: ${i === 3 ? s.bytes.toLocaleString('en-US') : formatBytes(s.bytes)}`,
        ]
      : rec
        ? [`due at ${formatDuration(rec.t)} (+${formatDuration(rec.t - t0)})`]
        : ['not reached yet'];
    lines.forEach((t, k) => {
      body
        .append('text')
        .attr('class', k === 0 ? 'v-muted-text' : 'x-step-text')
        .attr('x', 12)
        .attr('y', 36 + k * 17)
        .text(t);
    });
    if (s) g.append('title').text(`${def.name}: ${def.a} ${exactBytes(s.pos)}; ${def.b} ${i === 3 ? s.bytes : exactBytes(s.bytes)}`);
    if (i < n - 1) {
      const ax = x + bw + 3;
      svg
        .append('path')
        .attr('class', 'x-step-arrow')
        .attr('d', `M${ax},${4 + BOX_H / 2}h${GAP - 10}m-5,-5l5,5l-5,5`);
    }
  });
}

const ZONE_TITLES: Record<ZoneKey, string> = {
  ack: 'acknowledged to the host: up to',
  extra: 'extra tail recovered:',
  lost: 'lost in the intake queue:',
  dropped: 'dropped beyond the first gap:',
};

/** The stream bar: its stretches, a legend, and the marks (grouped labels on the given rows). */
function drawStream(
  svg: Svg,
  layout: StreamLayout,
  groups: (MarkGroup & { text: string })[],
  x: ScaleLinear<number, number>,
  rows: number[],
): void {
  if (groups.length === 0) return;
  svg.append('text').attr('class', 'v-axis-title').attr('x', 4).attr('y', BAR_Y - 10).text('the log stream around the crash');
  legend(
    svg.append('g').attr('transform', `translate(180,${BAR_Y - 21})`),
    [
      { label: 'acknowledged', color: 'var(--x-durable)', shape: 'rect' },
      { label: 'extra tail', color: 'var(--x-counter)', shape: 'rect' },
      { label: 'lost in the queue', color: 'var(--x-programming)', shape: 'rect' },
      { label: 'dropped beyond the gap', color: 'var(--x-down)', shape: 'rect' },
    ],
    1000,
  );
  const [d0, d1] = layout.domain;
  svg.append('rect').attr('class', 'x-stream-track').attr('x', x(d0)).attr('y', BAR_Y).attr('width', x(d1) - x(d0)).attr('height', 14);
  for (const z of layout.zones) {
    svg
      .append('rect')
      .attr('class', `x-stream--${z.key}`)
      .attr('x', x(z.from))
      .attr('y', BAR_Y)
      .attr('width', Math.max(2, x(z.to) - x(z.from)))
      .attr('height', 14)
      .append('title')
      .text(`${ZONE_TITLES[z.key]} ${exactBytes(z.key === 'ack' ? z.to : z.to - z.from)}`);
  }
  // Leaders first, labels over them (the labels' halo hides the leaders they cross).
  groups.forEach((m, i) => {
    const mx = x(m.pos);
    svg
      .append('line')
      .attr('class', 'x-stream-mark')
      .attr('x1', mx)
      .attr('x2', mx)
      .attr('y1', BAR_Y - 3)
      .attr('y2', BAR_Y + 17 + rows[i]! * ROW);
  });
  groups.forEach((m, i) => {
    svg
      .append('text')
      .attr('class', 'x-stream-label')
      .attr('data-keys', m.keys.join(' '))
      .attr('x', x(m.pos))
      .attr('y', BAR_Y + 27 + rows[i]! * ROW)
      .attr('text-anchor', 'middle')
      .text(m.text)
      .append('title')
      .text(`${m.label}: ${exactBytes(m.pos)}`);
  });
}

function CrashReport({ c }: { c: CrashMetrics }) {
  const items: [string, string, string][] = [
    ['acknowledged', 'acknowledged to the host', exactBytes(c.hostAcknowledged)],
    ['counter', 'counter at the power loss', exactBytes(c.counterAtLoss)],
    ['queued-lost', 'lost in the intake queue', exactBytes(c.queuedLost)],
    ['dropped', 'dropped beyond the gap', exactBytes(c.beyondGap)],
    ['capacitors', 'destaged on capacitors', `${exactBytes(c.destagedOnCapacitors)} in ${formatDuration(c.capacitorNs)}`],
    ['durable', 'durable after reboot', exactBytes(c.durableAfterReboot)],
    ['extra-tail', 'extra tail', exactBytes(c.extraTail)],
    ['lost-acknowledged', 'acknowledged but lost', exactBytes(c.lostAcknowledged)],
  ];
  return (
    <dl className="x-dl x-dl--wide" data-testid="xssd-crash-report">
      {items.map(([key, label, value]) => (
        <div key={key} className={key === 'lost-acknowledged' && c.lostAcknowledged > 0 ? 'x-dl__row x-bad' : 'x-dl__row'}>
          <dt>{label}</dt>
          <dd data-key={key}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
