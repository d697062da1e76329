// Response-time CDF per workload: the current run's flows as solid curves and
// the curves kept from earlier runs (other workloads) dashed, latency ÷ tPROG
// on a log axis, so the (1-0) log, the (1-1) log and the (M-N) log can be laid
// over each other as in the paper.
import { useMemo, useSyncExternalStore } from 'react';
import { line, scaleLinear, scaleLog } from 'd3';
import type { DeviceInfo } from '../../bridge/protocol';
import type { RequestRow } from './analysis';
import { flowColor } from './palette';
import { clearKept, flowCurves, keepCurves, keptCurves, subscribeKept, type CdfCurve } from './workloadCdf';

const W = 800;
const H = 240;
const M = { l: 44, r: 12, t: 10, b: 32 };
const X_TICKS = [0.5, 1, 2, 5, 10, 20, 50, 100, 200];
const Y_TICKS = [0, 0.25, 0.5, 0.75, 0.9, 1];
// Kept curves take the palette entries least like the current run's first flows (blue, vermillion).
const KEPT_COLORS = [2, 3, 5, 7, 6, 4];

interface Drawn {
  curve: CdfCurve;
  color: string;
  kept: boolean;
}

export function WorkloadCdf({ rows, device }: { rows: RequestRow[] | null; device: DeviceInfo }) {
  const kept = useSyncExternalStore(subscribeKept, keptCurves);
  const current = useMemo(
    () => (rows ? flowCurves(rows, device.flows.map((f) => f.name), device.program_ns, device.title) : []),
    [rows, device],
  );
  const drawn: Drawn[] = [
    // A kept curve of this very run is drawn once, as the current one.
    ...kept
      .filter((k) => !current.some((c) => c.label === k.label))
      .map((curve, i) => ({ curve, color: flowColor(KEPT_COLORS[i % KEPT_COLORS.length]!), kept: true })),
    ...current.map((curve) => ({ curve, color: flowColor(curve.flow), kept: false })),
  ];
  if (drawn.length === 0) return <p className="muted obs__empty">No requests analysed yet.</p>;

  let hi = 2;
  for (const d of drawn) hi = Math.max(hi, d.curve.points[d.curve.points.length - 1]![0]);
  const x = scaleLog()
    .domain([0.5, Math.max(2, hi * 1.1)])
    .range([M.l, W - M.r])
    .clamp(true);
  const y = scaleLinear().domain([0, 1]).range([H - M.b, M.t]);
  const path = line<[number, number]>()
    .x((p) => x(Math.max(0.5, p[0])))
    .y((p) => y(p[1]));
  const ticks = X_TICKS.filter((t) => t <= x.domain()[1]!);
  return (
    <div className="obs__chart" data-testid="workload-cdf" data-curves={drawn.length}>
      <svg viewBox={`0 0 ${W} ${H}`} className="obs__svg" role="img" aria-label="response-time CDF per workload">
        <rect x={x(0.7)} y={M.t} width={x(1.3) - x(0.7)} height={H - M.t - M.b} className="obs__band" />
        {Y_TICKS.map((t) => (
          <g key={t}>
            <line x1={M.l} x2={W - M.r} y1={y(t)} y2={y(t)} className="obs__grid" />
            <text x={M.l - 4} y={y(t) + 3} textAnchor="end" className="obs__tick">
              {`${Math.round(t * 100)}%`}
            </text>
          </g>
        ))}
        {ticks.map((t) => (
          <text key={t} x={x(t)} y={H - M.b + 13} textAnchor="middle" className="obs__tick">
            {t}
          </text>
        ))}
        <line x1={M.l} x2={W - M.r} y1={y(0)} y2={y(0)} className="obs__axis" />
        {drawn.map((d) => (
          <path
            key={d.curve.label}
            d={path(d.curve.points) ?? ''}
            fill="none"
            stroke={d.color}
            strokeWidth={d.kept ? 1.6 : 2}
            strokeDasharray={d.kept ? '6 3' : undefined}
          >
            <title>{`${d.curve.label}: ${d.curve.count} requests, p50 ${d.curve.p50.toFixed(2)} × tPROG, p99 ${d.curve.p99.toFixed(2)} × tPROG`}</title>
          </path>
        ))}
        <text x={(W + M.l) / 2} y={H - 4} textAnchor="middle" className="obs__tick">
          latency ÷ tPROG (log scale)
        </text>
      </svg>
      <table className="obs__cdf-table">
        <thead>
          <tr>
            <th />
            <th>workload · flow</th>
            <th>requests</th>
            <th>p50</th>
            <th>p99</th>
            <th>p99 ÷ p50</th>
          </tr>
        </thead>
        <tbody>
          {drawn.map((d) => (
            <tr key={d.curve.label} className={d.kept ? 'obs__kept' : undefined}>
              <td>
                <span className={`obs__line-swatch${d.kept ? ' obs__line-swatch--dashed' : ''}`} style={{ borderColor: d.color }} />
              </td>
              <td>{d.curve.label}</td>
              <td>{d.curve.count.toLocaleString('en-US')}</td>
              <td>{d.curve.p50.toFixed(2)}×</td>
              <td>{d.curve.p99.toFixed(2)}×</td>
              <td>{d.curve.p50 > 0 ? (d.curve.p99 / d.curve.p50).toFixed(2) : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="obs__cdf-actions">
        <button type="button" data-testid="cdf-keep" disabled={current.length === 0} onClick={() => keepCurves(current)}>
          Keep these curves
        </button>
        <button type="button" data-testid="cdf-clear" disabled={kept.length === 0} onClick={clearKept}>
          Clear kept curves
        </button>
        <span className="muted">Keep a run&apos;s curves, open another workload, and compare.</span>
      </div>
    </div>
  );
}
