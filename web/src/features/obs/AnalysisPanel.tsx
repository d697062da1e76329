// The analysis panel (lazy-loaded): slow requests explained from the records,
// the flash schedule around a clicked request, the instrumentation cache, the
// GC breakdown, requests held up by GC against the valid pages it copied, the
// latency distribution normalised to tPROG, LBA over time and the response-time
// CDF per workload. Everything goes
// through the Playground's worker queue.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { REQUEST_STAGES, type DeviceInfo, type InstrCommand, type Metrics, type RequestExplanation } from '../../bridge/protocol';
import { usePg } from '../../app/hooks';
import type { Playground } from '../../app/playground';
import { downloadBlob } from '../../exports/download';
import { ChartPanel } from '../../views';
import { useThemeVersion } from '../../views/hooks';
import { decodeRows, normalise, normalisedHistogram, shareWithin, slowest, stack, stageValues, type RequestRow } from './analysis';
import { hasGc, parseGc } from './gc';
import { parseGcDelays } from './gcDelays';
import { GcView } from './GcView';
import { ObsHelp } from './helpText';
import { FLOW_COLORS, flowColor, STAGE_COLORS } from './palette';
import { parseSchedules } from './schedule';
import { SchedulePanel } from './SchedulePanel';
import { ValidCopiesView } from './ValidCopiesView';
import { WorkloadCdf } from './WorkloadCdf';
import './obs.css';

const TOP_N = 20;
const us = (ns: number) => (ns / 1e3).toLocaleString('en-US', { maximumFractionDigits: ns < 1e5 ? 1 : 0 });
const stageLabel = (s: string) => s.replace('_', ' ');

export default function AnalysisPanel({ pg, device }: { pg: Playground; device: DeviceInfo }) {
  const frame = usePg(pg, (s) => s.frame);
  const playing = usePg(pg, (s) => s.playing);
  const runningToEnd = usePg(pg, (s) => s.runningToEnd);
  const [rows, setRows] = useState<RequestRow[] | null>(null);
  // The analysis summary (slowest requests with their schedules, GC, GC delays).
  const [summary, setSummary] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [picked, setPicked] = useState<number | null>(null);
  const analyzedAt = useRef<number | null>(null);

  const refresh = useCallback(() => {
    setBusy(true);
    analyzedAt.current = pg.state.frame?.events ?? 0;
    // Both over the same records: the worker queue runs them back to back.
    Promise.all([pg.requestRows(), pg.analyze(TOP_N)]).then(
      ([r, a]) => {
        setRows(decodeRows(r.rows));
        setSummary(a);
        setError('');
        setBusy(false);
      },
      (e: unknown) => {
        setError(e instanceof Error ? e.message : String(e));
        setBusy(false);
      },
    );
  }, [pg]);

  // Auto-refresh whenever the run is paused or finished at a new point.
  const idle = !playing && !runningToEnd;
  const events = frame?.events ?? 0;
  useEffect(() => {
    if (idle && events > 0 && analyzedAt.current !== events) refresh();
  }, [idle, events, refresh]);

  const instr = frame?.metrics?.instrumentation;
  const schedules = useMemo(() => parseSchedules(summary), [summary]);
  const gc = useMemo(() => parseGc(summary), [summary]);
  const delays = useMemo(() => parseGcDelays(summary), [summary]);
  return (
    <div className={`obs${instr ? '' : ' obs--noside'}`} data-testid="analysis">
      <div className="obs__requests">
        <SlowRequests
          pg={pg}
          device={device}
          rows={rows}
          busy={busy}
          error={error}
          onAnalyze={refresh}
          picked={picked}
          onPick={setPicked}
        />
      </div>
      {instr ? (
        <div className="obs__side">
          <InstrStatus pg={pg} instr={instr} />
        </div>
      ) : null}
      <div className="obs__sched">
        <SchedulePanel device={device} rows={rows} schedules={summary ? schedules : null} picked={picked} />
      </div>
      <div className="obs__gc">
        <ChartPanel title="GC breakdown" subtitle="erase only vs copy then erase" help={ObsHelp.gc} exportName="gc-breakdown">
          {hasGc(gc) ? (
            <GcView gc={gc} />
          ) : (
            <p className="muted obs__empty" data-testid="gc-empty">
              {summary ? 'No garbage collection in the records.' : 'Pause or finish the run, or press Analyze records.'}
            </p>
          )}
        </ChartPanel>
      </div>
      <div className="obs__copies">
        <ChartPanel
          title="Valid copies per request"
          subtitle={
            delays && delays.waited > 0
              ? `${delays.delayed.toLocaleString('en-US')} of ${delays.waited.toLocaleString('en-US')} held up by GC`
              : 'requests held up by GC'
          }
          help={ObsHelp.copies}
          exportName="valid-copies-per-request"
        >
          {delays && delays.delayed > 0 ? (
            <ValidCopiesView delays={delays} device={device} />
          ) : (
            <p className="muted obs__empty" data-testid="valid-copies-empty">
              {!summary
                ? 'Pause or finish the run, or press Analyze records.'
                : delays && delays.waited > 0
                  ? 'No request waited behind a GC op: GC never held a die a request was waiting for.'
                  : 'No request waited for a flash op (reads from flash, or writes that queued for a buffer slot).'}
            </p>
          )}
        </ChartPanel>
      </div>
      <div className="obs__dist">
        <ChartPanel title="Latency ÷ tPROG" subtitle="share of each flow's requests" help={ObsHelp.dist} exportName="latency-normalised">
          <Distribution rows={rows} device={device} />
        </ChartPanel>
      </div>
      <div className="obs__lba">
        <ChartPanel title="LBA over time" subtitle="offset vs submit time, one lane per flow" help={ObsHelp.lba} exportName="lba-over-time">
          <LbaScatter rows={rows} device={device} />
        </ChartPanel>
      </div>
      <div className="obs__cdf">
        <ChartPanel title="Response-time CDF per workload" subtitle="this run solid, kept runs dashed" help={ObsHelp.cdf} exportName="cdf-per-workload">
          <WorkloadCdf rows={rows} device={device} />
        </ChartPanel>
      </div>
    </div>
  );
}

function SlowRequests(props: {
  pg: Playground;
  device: DeviceInfo;
  rows: RequestRow[] | null;
  busy: boolean;
  error: string;
  onAnalyze: () => void;
  picked: number | null;
  onPick: (id: number) => void;
}) {
  const { pg, device, rows, busy, error, onAnalyze, picked, onPick } = props;
  const top = useMemo(() => (rows ? slowest(rows, TOP_N) : []), [rows]);
  const [expl, setExpl] = useState<RequestExplanation | null>(null);
  const pick = useCallback(
    (id: number) => {
      onPick(id);
      setExpl(null);
      pg.explain(id).then(setExpl, () => setExpl({ found: false }));
    },
    [pg, onPick],
  );
  const within = rows ? shareWithin(rows, device.program_ns) : 0;
  return (
    <ChartPanel
      title="Slow requests"
      subtitle={rows ? `${rows.length.toLocaleString('en-US')} requests · ${(within * 100).toFixed(0)} % within 1 ± 0.3 tPROG` : 'from the records'}
      help={ObsHelp.obs}
      noExport
      actions={
        <button type="button" className="btn" data-testid="analyze-records" onClick={onAnalyze} disabled={busy}>
          {busy ? 'Analyzing…' : 'Analyze records'}
        </button>
      }
    >
      {error ? <p className="obs__error">{error}</p> : null}
      {!rows ? (
        <p className="muted obs__empty">Pause or finish the run, or press Analyze records.</p>
      ) : top.length === 0 ? (
        <p className="muted obs__empty">No complete request in the records yet.</p>
      ) : (
        <div className="obs__split">
          <div className="obs__tablewrap">
            <table className="obs__table" data-testid="slow-requests">
              <thead>
                <tr>
                  <th>id</th>
                  <th>flow</th>
                  <th>op</th>
                  <th className="num">KiB</th>
                  <th className="num">µs</th>
                  <th className="num">× tPROG</th>
                  <th>blamed</th>
                </tr>
              </thead>
              <tbody>
                {top.map((r) => (
                  <tr
                    key={r.id}
                    data-request-id={r.id}
                    className={r.id === picked ? 'is-picked' : undefined}
                    tabIndex={0}
                    onClick={() => pick(r.id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        pick(r.id);
                      }
                    }}
                  >
                    <td>{r.id}</td>
                    <td>
                      <span className="obs__swatch" style={{ background: flowColor(r.flow) }} />
                      {device.flows[r.flow]?.name ?? r.flow}
                    </td>
                    <td>{r.isRead ? 'read' : 'write'}</td>
                    <td className="num">{(r.bytes / 1024).toLocaleString('en-US')}</td>
                    <td className="num">{us(r.latencyNs)}</td>
                    <td className="num">{normalise(r.latencyNs, device.program_ns).toFixed(1)}</td>
                    <td>{r.blamed ? stageLabel(r.blamed) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Explanation expl={expl} device={device} picked={picked} />
        </div>
      )}
    </ChartPanel>
  );
}

function Explanation({ expl, device, picked }: { expl: RequestExplanation | null; device: DeviceInfo; picked: number | null }) {
  if (picked === null) return <div className="obs__expl muted">Click a request to see why it was slow.</div>;
  if (!expl) return <div className="obs__expl muted">Explaining request {picked}…</div>;
  if (!expl.found)
    return (
      <div className="obs__expl" data-testid="explanation">
        Request {picked} is not in the records.
      </div>
    );
  const stages = stageValues(expl.stages_ns);
  const bases = stageValues(expl.baselines_ns);
  const total = Math.max(1, stages.reduce((a, b) => a + b, 0), bases.reduce((a, b) => a + b, 0));
  const W = 400;
  const bar = (vals: number[], y: number, label: string) => (
    <g>
      <text x={0} y={y + 13} className="obs__barlabel">
        {label}
      </text>
      {stack(vals).map((seg, i) => {
        const name = REQUEST_STAGES[i]!;
        const blamed = name === expl.blamed;
        return seg.len > 0 ? (
          <rect
            key={name}
            x={70 + (seg.start / total) * (W - 70)}
            y={y}
            width={Math.max(1, (seg.len / total) * (W - 70))}
            height={18}
            style={{ fill: STAGE_COLORS[name], stroke: blamed ? 'var(--v-text)' : 'none', strokeWidth: blamed ? 2 : 0 }}
            opacity={expl.blamed && !blamed ? 0.55 : 1}
          >
            <title>{`${stageLabel(name)}: ${us(seg.len)} µs`}</title>
          </rect>
        ) : null;
      })}
    </g>
  );
  return (
    <div className="obs__expl" data-testid="explanation" data-blamed={expl.blamed ?? ''}>
      <div className="obs__expl-head">
        Request {expl.id} · {device.flows[expl.flow ?? 0]?.name ?? expl.flow} · {expl.is_read ? 'read' : 'write'} ·{' '}
        {us(expl.latency_ns ?? 0)} µs ({normalise(expl.latency_ns ?? 0, device.program_ns).toFixed(1)} × tPROG)
      </div>
      <svg viewBox={`0 0 ${W} 52`} className="obs__bars" role="img" aria-label="stages against their baselines">
        {bar(stages, 2, 'this request')}
        {bar(bases, 28, 'baseline')}
      </svg>
      <ul className="obs__legend">
        {REQUEST_STAGES.map((s, i) => (
          <li key={s} className={s === expl.blamed ? 'is-blamed' : undefined}>
            <span className="obs__swatch" style={{ background: STAGE_COLORS[s] }} />
            {stageLabel(s)} {us(stages[i]!)} / {us(bases[i]!)} µs
          </li>
        ))}
      </ul>
      {expl.blamed ? (
        <p className="obs__blamed">
          Blamed: <strong>{stageLabel(expl.blamed)}</strong>
          {expl.excess_ns ? ` (+${us(expl.excess_ns)} µs over its baseline)` : ''}
        </p>
      ) : null}
      {expl.sentence ? <p className="obs__sentence">{expl.sentence}</p> : null}
      {expl.is_read && expl.has_flash ? (
        <div className="obs__die">
          Die {expl.die}: waited {us(expl.die_wait_ns ?? 0)} µs behind
          <ul>
            {(expl.die_ops ?? []).map((o, i) => (
              <li key={i}>
                {o.count} × {o.kind} ({o.purpose}), {us(o.busy_ns)} µs
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

type Instr = NonNullable<Metrics['instrumentation']>;

function InstrStatus({ pg, instr }: { pg: Playground; instr: Instr }) {
  const [msg, setMsg] = useState('');
  const run = (c: InstrCommand) => {
    pg.instrumentationCommand(c, 0).then(
      (err) => setMsg(err ? `${c}: ${err}` : ''),
      (e: unknown) => setMsg(e instanceof Error ? e.message : String(e)),
    );
  };
  const download = () => {
    pg.transferredRecords().then(
      (buf) => {
        if (buf.byteLength === 0) setMsg('Nothing transferred yet: press Transfer first.');
        else downloadBlob(new Blob([buf], { type: 'application/octet-stream' }), 'transferred-records.ssdrec');
      },
      (e: unknown) => setMsg(e instanceof Error ? e.message : String(e)),
    );
  };
  const state = instr.frozen ? 'frozen' : instr.triggered ? 'triggered' : 'recording';
  const fill = instr.capacity_records > 0 ? instr.held_records / instr.capacity_records : 0;
  return (
    <ChartPanel title="Instrumentation cache" subtitle={state} help={ObsHelp.instr} noExport>
      <div className="obs__instr" data-testid="instr-status" data-transfers={instr.transfers} data-state={state}>
        <p className="obs__headline">
          {Number.isFinite(instr.capacity_s) && instr.capacity_s > 0 ? (
            <>
              This cache holds <strong data-testid="instr-capacity-s">{fmtSeconds(instr.capacity_s)}</strong> of history
              for this workload.
            </>
          ) : (
            'No records yet: the history it can hold is unknown.'
          )}
        </p>
        <div className="obs__meter" aria-hidden="true">
          <div style={{ width: `${(fill * 100).toFixed(1)}%` }} />
        </div>
        <dl className="obs__dl">
          <dt>held</dt>
          <dd>
            {instr.held_records.toLocaleString('en-US')} / {instr.capacity_records.toLocaleString('en-US')} records
          </dd>
          <dt>overwritten</dt>
          <dd>{instr.overwritten.toLocaleString('en-US')}</dd>
          <dt>history</dt>
          <dd>{instr.history_ms.toFixed(1)} ms</dd>
          <dt>rate</dt>
          <dd>{Math.round(instr.records_per_s).toLocaleString('en-US')} records/s</dd>
          <dt>state</dt>
          <dd>
            {state}
            {instr.frozen ? ` at ${(instr.frozen_at_ns / 1e6).toFixed(1)} ms` : ''}
          </dd>
          <dt>transfers</dt>
          <dd data-testid="instr-transfers">{instr.transfers}</dd>
          <dt>transferred</dt>
          <dd>{(instr.bytes_transferred / 1048576).toFixed(2)} MiB</dd>
        </dl>
        <div className="obs__buttons">
          <button type="button" className="btn" data-testid="instr-transfer" onClick={() => run('transfer')}>
            Transfer
          </button>
          <button type="button" className="btn" data-testid="instr-freeze" onClick={() => run('freeze')} disabled={instr.frozen}>
            Freeze
          </button>
          <button type="button" className="btn" data-testid="instr-resume" onClick={() => run('resume')} disabled={!instr.frozen}>
            Resume
          </button>
          <button type="button" className="btn" data-testid="instr-clear" onClick={() => run('clear')}>
            Clear
          </button>
          <button type="button" className="btn" data-testid="instr-download" onClick={download} disabled={instr.transfers === 0}>
            Download transferred records
          </button>
        </div>
        {msg ? <p className="obs__error">{msg}</p> : null}
      </div>
    </ChartPanel>
  );
}

function fmtSeconds(s: number): string {
  if (s >= 100) return `${Math.round(s).toLocaleString('en-US')} s`;
  if (s >= 1) return `${s.toFixed(1)} s`;
  return `${(s * 1000).toFixed(0)} ms`;
}

function Distribution({ rows, device }: { rows: RequestRow[] | null; device: DeviceInfo }) {
  const flows = device.flows.length;
  const h = useMemo(() => (rows ? normalisedHistogram(rows, device.program_ns, flows, 0.1, 10) : null), [rows, device.program_ns, flows]);
  if (!h || h.totals.every((t) => t === 0)) return <p className="muted obs__empty">No requests analysed yet.</p>;
  const W = 800;
  const H = 200;
  const m = { l: 40, r: 10, t: 8, b: 30 };
  const bins = h.counts[0]!.length; // last is overflow
  const bw = (W - m.l - m.r) / bins;
  let ymax = 0;
  h.counts.forEach((c, f) => c.forEach((n) => (ymax = Math.max(ymax, h.totals[f]! ? n / h.totals[f]! : 0))));
  ymax = Math.max(0.01, ymax);
  const x = (v: number) => m.l + (v / h.binWidth) * bw;
  const y = (share: number) => H - m.b - (share / ymax) * (H - m.t - m.b);
  const ticks = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const yticks = [0, ymax / 2, ymax];
  return (
    <div className="obs__chart">
      <svg viewBox={`0 0 ${W} ${H}`} className="obs__svg" role="img" aria-label="latency over tPROG per flow">
        <rect x={x(0.7)} y={m.t} width={x(1.3) - x(0.7)} height={H - m.t - m.b} className="obs__band" />
        <text x={x(1.3) + 3} y={m.t + 10} className="obs__tick">
          ideal 1 ± 0.3
        </text>
        {yticks.map((t) => (
          <g key={t}>
            <line x1={m.l} x2={W - m.r} y1={y(t)} y2={y(t)} className="obs__grid" />
            <text x={m.l - 4} y={y(t) + 3} textAnchor="end" className="obs__tick">
              {(t * 100).toFixed(0)}%
            </text>
          </g>
        ))}
        {h.counts.map((c, f) =>
          h.totals[f] ? (
            <g key={f} style={{ fill: flowColor(f) }} opacity={0.8}>
              {c.map((n, k) =>
                n > 0 ? (
                  <rect key={k} x={m.l + k * bw + (f * bw) / flows} y={y(n / h.totals[f]!)} width={Math.max(1, bw / flows)} height={y(0) - y(n / h.totals[f]!)}>
                    <title>{`${device.flows[f]?.name ?? f}: ${k === bins - 1 ? `≥ ${h.max}` : `${(k * h.binWidth).toFixed(1)}–${((k + 1) * h.binWidth).toFixed(1)}`} × tPROG: ${n} (${((n / h.totals[f]!) * 100).toFixed(1)} %)`}</title>
                  </rect>
                ) : null,
              )}
            </g>
          ) : null,
        )}
        <line x1={m.l} x2={W - m.r} y1={y(0)} y2={y(0)} className="obs__axis" />
        {ticks.map((t) => (
          <text key={t} x={x(t)} y={H - m.b + 12} textAnchor="middle" className="obs__tick">
            {t}
          </text>
        ))}
        <text x={m.l + (bins - 0.5) * bw} y={H - m.b + 12} textAnchor="middle" className="obs__tick">
          ≥{h.max}
        </text>
        <text x={(W + m.l) / 2} y={H - 4} textAnchor="middle" className="obs__tick">
          latency ÷ tPROG ({us(device.program_ns)} µs)
        </text>
      </svg>
      <FlowLegend device={device} />
    </div>
  );
}

function FlowLegend({ device }: { device: DeviceInfo }) {
  return (
    <ul className="obs__legend">
      {device.flows.map((f, i) => (
        <li key={i}>
          <span className="obs__swatch" style={{ background: flowColor(i) }} />
          {f.name}
        </li>
      ))}
    </ul>
  );
}

function LbaScatter({ rows, device }: { rows: RequestRow[] | null; device: DeviceInfo }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const theme = useThemeVersion();
  const W = 420;
  const H = 220;
  const m = { l: 8, r: 8, t: 4, b: 26 };
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas || !rows || rows.length === 0) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const cs = getComputedStyle(canvas);
    const text = cs.getPropertyValue('--v-muted').trim() || '#5b6470';
    const grid = cs.getPropertyValue('--v-grid').trim() || '#e9ecf0';
    // Canvas needs concrete colours: the flows' theme variables, resolved now.
    const colors = FLOW_COLORS.map((c, i) => cs.getPropertyValue(`--obs-flow-${i}`).trim() || c);
    ctx.clearRect(0, 0, W, H);
    // One lane per flow, each scaled to the flow's own offset range: flows
    // far apart on the device would otherwise be flat lines.
    const flows = Math.max(1, device.flows.length);
    let tmax = 1;
    const lo = new Array<number>(flows).fill(Infinity);
    const hi = new Array<number>(flows).fill(-Infinity);
    for (const r of rows) {
      tmax = Math.max(tmax, r.submitNs);
      if (r.flow < 0 || r.flow >= flows) continue;
      lo[r.flow] = Math.min(lo[r.flow]!, r.offsetBytes);
      hi[r.flow] = Math.max(hi[r.flow]!, r.offsetBytes + r.bytes);
    }
    const laneH = (H - m.t - m.b) / flows;
    const x = (t: number) => m.l + (t / tmax) * (W - m.l - m.r);
    const y = (f: number, o: number) => {
      const span = Math.max(1, hi[f]! - lo[f]!);
      return m.t + (f + 1) * laneH - 3 - ((o - lo[f]!) / span) * (laneH - 16);
    };
    ctx.strokeStyle = grid;
    ctx.fillStyle = text;
    ctx.font = '10px system-ui, sans-serif';
    for (let f = 0; f < flows; f++) {
      const top = m.t + f * laneH;
      if (f > 0) {
        ctx.beginPath();
        ctx.moveTo(m.l, top + 0.5);
        ctx.lineTo(W - m.r, top + 0.5);
        ctx.stroke();
      }
      ctx.textAlign = 'left';
      ctx.fillStyle = text;
      const range = Number.isFinite(lo[f]!) ? `${(lo[f]! / 2 ** 20).toFixed(0)}–${(hi[f]! / 2 ** 20).toFixed(0)} MiB` : 'no requests';
      ctx.fillText(`${device.flows[f]?.name ?? f}: ${range}`, m.l + 2, top + 10);
    }
    ctx.textAlign = 'center';
    ctx.fillStyle = text;
    for (let i = 0; i <= 4; i++) {
      const t = (tmax * i) / 4;
      ctx.textAlign = i === 0 ? 'left' : i === 4 ? 'right' : 'center';
      ctx.fillText(`${(t / 1e6).toFixed(t / 1e6 < 10 ? 1 : 0)} ms`, x(t), H - m.b + 12);
    }
    ctx.textAlign = 'center';
    ctx.fillText('submit time', (W + m.l) / 2, H - 2);
    for (const r of rows) {
      if (r.flow < 0 || r.flow >= flows) continue;
      ctx.fillStyle = colors[r.flow % colors.length]!;
      ctx.fillRect(x(r.submitNs) - 1, y(r.flow, r.offsetBytes) - 1, 2, 2);
    }
  }, [rows, device.flows, m.l, m.r, m.t, m.b, theme]);
  if (!rows || rows.length === 0) return <p className="muted obs__empty">No requests analysed yet.</p>;
  return (
    <div className="obs__chart">
      <canvas ref={ref} className="obs__canvas" style={{ width: '100%', aspectRatio: `${W} / ${H}` }} role="img" aria-label="LBA over time" />
      <FlowLegend device={device} />
    </div>
  );
}
