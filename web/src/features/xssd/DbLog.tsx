// The database log writer: its summary (throughput, commit latency, groups,
// errors) from metrics.db_log, and group commits over time from xssd_commit
// (transactions per second as bars, the mean flush time per bin as points).
import { useLayoutEffect, useMemo, useRef } from 'react';
import { scaleLinear } from 'd3';
import { formatCount, formatDuration } from '../../views';
import { useElementWidth } from '../../views/hooks';
import { dotsPath, emptyText, legend, resetSvg, timeAxis, valueAxis } from './chart';
import { commitBins, txnRate } from './dblog';
import { drawableBins, niceBinNs } from './destage';
import { formatBytes, formatMbps, formatUs } from './format';
import type { DbLogMetrics } from './metrics';
import type { Commit } from './stream';

const HEIGHT = 170;
const M = { top: 24, right: 52, bottom: 22, left: 52 };

const TARGETS: Record<string, string> = {
  cmb: 'logging to the fast side (CMB)',
  nvme: 'logging to the conventional side over NVMe',
  none: 'with no log at all (a group commits as soon as it forms)',
};

/** The log writer's numbers, as a definition list. */
export function DbLogSummary({ d }: { d: DbLogMetrics }) {
  const items: [string, string, string][] = [
    ['txn', 'transactions / s', formatCount(d.txnPerS)],
    ['lat-mean', 'commit latency, mean', formatUs(d.latencyMeanUs)],
    ['lat-p50', 'p50', formatUs(d.latencyP50Us)],
    ['lat-p99', 'p99', formatUs(d.latencyP99Us)],
    ['groups', 'group commits', d.groups.toLocaleString('en-US')],
    ['group-bytes', 'mean group', formatBytes(d.groupBytesMean)],
    ['flush', 'mean flush', formatUs(d.flushUsMean)],
    ['log-mbps', 'log throughput', formatMbps(d.logMbps)],
    ['fsync-errors', 'fsync errors', d.fsyncErrors.toLocaleString('en-US')],
    ['timeouts', 'groups cut by the timeout', d.timeoutGroups.toLocaleString('en-US')],
    ['waits', 'workers waiting (full queue)', d.workerWaits.toLocaleString('en-US')],
    ['transactions', 'transactions', d.transactions.toLocaleString('en-US')],
  ];
  if (d.tailReadBytes > 0) items.push(['tail', 'tail read after reboot', `${formatBytes(d.tailReadBytes)} (+${formatBytes(d.tailExtraBytes)})`]);
  return (
    <div data-testid="xssd-dblog-summary">
      <p className="x-note">
        {d.workers} worker{d.workers === 1 ? '' : 's'} {TARGETS[d.target] ?? `logging to ${d.target}`}
        {d.fatalOverrun ? <strong className="x-bad"> · overrun: the host wrote past its credits</strong> : null}
      </p>
      <dl className="x-dl">
        {items.map(([key, label, value]) => (
          <div key={key} className={key === 'fsync-errors' && d.fsyncErrors > 0 ? 'x-dl__row x-bad' : 'x-dl__row'}>
            <dt>{label}</dt>
            <dd data-key={key}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export interface CommitChartProps {
  commits: readonly Commit[];
  endNs: number;
}

/** Group commits over time: transactions per second per bin, and the mean flush time. */
export function CommitChart({ commits, endNs }: CommitChartProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = Math.max(320, useElementWidth(wrap));
  const bins = useMemo(() => drawableBins(commitBins(commits, niceBinNs(endNs, 40), endNs)), [commits, endNs]);

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, HEIGHT);
    legend(
      svg.append('g').attr('transform', `translate(${M.left},2)`),
      [
        { label: 'transactions/s (left)', color: 'var(--x-counter)', shape: 'rect' },
        { label: 'mean flush, µs (right)', color: 'var(--x-tail)', shape: 'rect' },
      ],
      width - M.left - 8,
    );
    const x = scaleLinear().domain([0, Math.max(1, endNs)]).range([M.left, width - M.right]);
    const maxRate = Math.max(0, ...bins.map(txnRate));
    const maxFlush = Math.max(0, ...bins.map((b) => (Number.isFinite(b.flushMeanNs) ? b.flushMeanNs / 1000 : 0)));
    const y = scaleLinear().domain([0, maxRate > 0 ? maxRate * 1.08 : 1]).nice(4).range([HEIGHT - M.bottom, M.top]);
    const yf = scaleLinear().domain([0, maxFlush > 0 ? maxFlush * 1.15 : 1]).nice(4).range([HEIGHT - M.bottom, M.top]);
    valueAxis(svg.append('g'), y, M.left, formatCount);
    valueAxis(svg.append('g'), yf, width - M.right, (v) => formatCount(v), 'right');
    timeAxis(svg.append('g'), x, HEIGHT - M.bottom);
    const g = svg.append('g');
    for (const b of bins) {
      if (b.groups === 0) continue;
      const r = txnRate(b);
      g.append('rect')
        .attr('class', 'x-bar--txn')
        .attr('x', x(b.t0) + 0.5)
        .attr('width', Math.max(1, x(b.t1) - x(b.t0) - 1))
        .attr('y', y(r))
        .attr('height', y(0) - y(r))
        .append('title')
        .text(
          `${formatDuration(b.t0)}–${formatDuration(b.t1)}: ${b.groups} group commits, ${b.txns} transactions ` +
            `(${formatCount(r)}/s), ${formatBytes(b.bytes)}, flush mean ${formatUs(b.flushMeanNs / 1000)}, max ${formatUs(b.flushMaxNs / 1000)}`,
        );
    }
    const flushed = bins.filter((b) => b.groups > 0);
    g.append('path')
      .attr('class', 'x-dots--flush')
      .attr('d', dotsPath(flushed, (b) => (x(b.t0) + x(b.t1)) / 2, (b) => yf(b.flushMeanNs / 1000), 2.5));
    if (flushed.length === 0) emptyText(svg, (M.left + width - M.right) / 2, HEIGHT / 2, 'No group commit yet');
  }, [bins, width, endNs]);

  return (
    <div className="v-view" ref={wrap} data-testid="xssd-commits" data-commits={commits.length}>
      <svg ref={svgRef} className="v-svg" role="img" aria-label="Group commits over time" />
    </div>
  );
}
