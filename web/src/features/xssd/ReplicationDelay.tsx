// The replication-delay distribution: per secondary, how long a write took
// from reaching the primary to being covered by the primary's shadow counter,
// with the p50 and p99 the model reports.
import { useLayoutEffect, useMemo, useRef } from 'react';
import { scaleLinear } from 'd3';
import { useElementWidth } from '../../views/hooks';
import { emptyText, resetSvg, valueAxis } from './chart';
import { formatUs } from './format';
import type { XssdMetrics } from './metrics';
import { histDomain, histogram, secColor } from './replication';
import type { XssdStream } from './stream';

export interface ReplicationDelayProps {
  x: XssdMetrics;
  stream: XssdStream;
}

/** A histogram of replication delays per secondary, with p50 and p99 marked. */
export function ReplicationDelay({ x: xm, stream }: ReplicationDelayProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = Math.max(320, useElementWidth(wrap));
  const height = 190;
  const hists = useMemo(() => {
    const all = stream.replDelay.map((d) => d.delayNs / 1000);
    const bins = histogram(all, 30);
    return xm.secondaries.map((_, i) => {
      const mine = stream.replDelay.filter((d) => d.secondary === i).map((d) => d.delayNs / 1000);
      // Same bins for every secondary, so the bars line up.
      return bins.map((b, k) => ({
        ...b,
        count: mine.filter((v) => v >= b.x0 && (v < b.x1 || (k === bins.length - 1 && v <= b.x1))).length,
      }));
    });
  }, [stream, xm.secondaries]);

  useLayoutEffect(() => {
    const el = svgRef.current;
    if (!el) return;
    const svg = resetSvg(el, width, height);
    const m = { top: 12, right: 12, bottom: 34, left: 44 };
    const first = hists[0] ?? [];
    if (first.length === 0) {
      emptyText(svg, width / 2, height / 2, 'No replicated writes yet');
      return;
    }
    const [lo, hi] = histDomain(first, 0.25);
    const x = scaleLinear().domain([lo, hi]).range([m.left, width - m.right]);
    const maxCount = Math.max(1, ...hists.flatMap((h) => h.map((b) => b.count)));
    const y = scaleLinear().domain([0, maxCount]).nice(4).range([height - m.bottom, m.top]);
    valueAxis(svg.append('g'), y, m.left, (v) => (Number.isInteger(v) ? String(v) : ''), 'left', 4);
    const xa = svg.append('g').attr('class', 'v-axis').attr('transform', `translate(0,${height - m.bottom})`);
    xa.call((g) => {
      for (const t of x.ticks(Math.max(3, Math.floor(width / 90)))) {
        g.append('line').attr('x1', x(t)).attr('x2', x(t)).attr('y1', 0).attr('y2', 4);
        g.append('text').attr('x', x(t)).attr('y', 14).attr('text-anchor', 'middle').text(formatUs(t));
      }
    });
    svg
      .append('text')
      .attr('class', 'v-axis-title')
      .attr('x', (m.left + width - m.right) / 2)
      .attr('y', height - 4)
      .attr('text-anchor', 'middle')
      .text('delay from the write reaching the primary to the shadow counter covering it');
    const k = hists.length;
    hists.forEach((h, i) => {
      const g = svg.append('g').style('fill', secColor(i)).attr('class', 'x-hist');
      for (const b of h) {
        if (b.count === 0) continue;
        const bw = Math.max(1, (x(b.x1) - x(b.x0) - 1) / k);
        g.append('rect')
          .attr('x', x(b.x0) + i * bw)
          .attr('width', bw)
          .attr('y', y(b.count))
          .attr('height', y(0) - y(b.count))
          .append('title')
          .text(`secondary ${i}: ${formatUs(b.x0)}–${formatUs(b.x1)}: ${b.count} writes`);
      }
    });
    xm.secondaries.forEach((s, i) => {
      if (!(s.replDelayCount > 0)) return;
      const same = s.replDelayP50Us === s.replDelayP99Us;
      const marks: [string, number][] = same
        ? [['p50 = p99', s.replDelayP50Us]]
        : [
            ['p50', s.replDelayP50Us],
            ['p99', s.replDelayP99Us],
          ];
      marks.forEach(([label, v], k) => {
        if (v < lo || v > hi) return;
        svg.append('line').attr('class', 'x-pline').attr('x1', x(v)).attr('x2', x(v)).attr('y1', m.top).attr('y2', height - m.bottom).style('stroke', secColor(i));
        svg
          .append('text')
          .attr('class', 'x-plabel')
          .attr('x', x(v) + 4)
          .attr('y', m.top + 10 + k * 13 + i * 28)
          .text(`${xm.secondaries.length > 1 ? `S${i} ` : ''}${label} ${formatUs(v)}`);
      });
    });
  }, [hists, width, xm.secondaries]);

  return (
    <div className="v-view" ref={wrap} data-testid="xssd-delay" data-count={stream.replDelay.length}>
      <svg ref={svgRef} className="v-svg" role="img" aria-label="Replication delay distribution" />
      <p className="x-note">
        {xm.secondaries
          .map((s, i) =>
            s.replDelayCount > 0
              ? `S${i}: ${s.replDelayCount.toLocaleString('en-US')} writes, min ${formatUs(s.replDelayMinUs)}, p50 ${formatUs(s.replDelayP50Us)}, p99 ${formatUs(s.replDelayP99Us)}, max ${formatUs(s.replDelayMaxUs)}`
              : `S${i}: no writes replicated`,
          )
          .join(' · ')}
      </p>
    </div>
  );
}
