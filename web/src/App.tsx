// SSD Playground: the page. The shell (header, run controls, metrics,
// scenarios, exports) lives in app/, scenarios/ and exports/; the drawings in
// views/. The model runs in a worker; app/playground.ts talks to it.
import { lazy, memo, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import type { BlockSnapshot, DeviceInfo, EnumNames, Frame, LatencyBuckets, SeriesPoint, TimelineEvent } from './bridge/protocol';
import { ControlBar } from './app/ControlBar';
import { FailBlockDialog, HelpOverlay } from './app/Dialogs';
import { Header } from './app/Header';
import { usePg, usePlayground, useShortcuts, useTheme } from './app/hooks';
import { MetricsPanel } from './app/MetricsPanel';
import { HELP } from './app/metricsSpec';
import type { Playground } from './app/playground';
import type { Action } from './app/shortcuts';
import { useRunLoop } from './app/useRunLoop';
import { ScenarioDrawer, type DrawerTab } from './scenarios/ScenarioDrawer';
import { XssdSection } from './features/xssd/XssdSection';
import {
  BlockMap,
  ChartPanel,
  EventTimeline,
  FloorPlan,
  HelpText,
  LatencyCdf,
  TimeSeriesChart,
  type BlockMapMode,
} from './views';

/** The analysis panel (records, instrumentation cache) loads only when opened. */
const AnalysisPanel = lazy(() => import('./features/obs/AnalysisPanel'));

/** Metric tooltips: the views' glossary where it has the term, the shell's own text otherwise. */
const GLOSSARY: Record<string, string> = {
  iops: HelpText.glossary.IOPS,
  mbps: HelpText.glossary['MB/s'],
  waf: HelpText.glossary.WAF,
  rmwReads: HelpText.glossary.RMW,
  gcRuns: HelpText.glossary.GC,
  latency: `${HELP.latency!} ${HelpText.glossary.p99}`,
  bufferHits: `${HELP.bufferHits!} ${HelpText.glossary['write buffer']}`,
  eraseCount: `${HELP.eraseCount!} ${HelpText.glossary['wear leveling']}`,
  recovery: `${HELP.recovery!} ${HelpText.glossary.checkpoint}`,
};

export function App() {
  const pg = usePlayground();
  useRunLoop(pg);
  const [themeChoice, theme, setThemeChoice] = useTheme();
  const [drawer, setDrawer] = useState<{ open: boolean; tab: DrawerTab }>({ open: false, tab: 'library' });
  const [helpOpen, setHelpOpen] = useState(false);
  const [failOpen, setFailOpen] = useState(false);
  const device = usePg(pg, (s) => s.device);

  const openFail = useCallback(() => {
    if (pg.state.device) setFailOpen(true);
  }, [pg]);

  const onAction = useCallback(
    (a: Action) => {
      switch (a) {
        case 'togglePlay':
          pg.togglePlay();
          break;
        case 'step':
          void pg.step();
          break;
        case 'runToEnd':
          void pg.runToEnd();
          break;
        case 'reset':
          void pg.reset();
          break;
        case 'faster':
          pg.faster();
          break;
        case 'slower':
          pg.slower();
          break;
        case 'powerFail':
          void pg.powerFail();
          break;
        case 'failBlock':
          openFail();
          break;
        case 'help':
          setHelpOpen((o) => !o);
          break;
        case 'scenarios':
          setDrawer((d) => ({ ...d, open: !d.open }));
          break;
        case 'close':
          setHelpOpen(false);
          setFailOpen(false);
          setDrawer((d) => (d.open ? { ...d, open: false } : d));
          break;
      }
    },
    [pg, openFail],
  );
  useShortcuts(onAction, helpOpen || failOpen);

  return (
    <div className="app">
      <Header
        pg={pg}
        themeChoice={themeChoice}
        theme={theme}
        onTheme={setThemeChoice}
        onScenarios={() => setDrawer((d) => ({ ...d, open: !d.open }))}
        onHelp={() => setHelpOpen(true)}
      />
      <ControlBar pg={pg} onFailBlock={openFail} />
      <Banner pg={pg} />
      <main className="dash" id="main">
        <Dashboard pg={pg} />
      </main>
      <XssdSection pg={pg} />
      <AnalysisSection pg={pg} />
      <Notice pg={pg} />
      <ScenarioDrawer
        pg={pg}
        open={drawer.open}
        tab={drawer.tab}
        onTab={(tab) => setDrawer({ open: true, tab })}
        onClose={() => setDrawer((d) => ({ ...d, open: false }))}
      />
      {helpOpen ? <HelpOverlay onClose={() => setHelpOpen(false)} /> : null}
      {failOpen && device ? (
        <FailBlockDialog
          device={device}
          selected={pg.state.selectedBlock}
          onClose={() => setFailOpen(false)}
          onFail={(b) => {
            setFailOpen(false);
            void pg.failBlock(b);
          }}
        />
      ) : null}
    </div>
  );
}

function Banner({ pg }: { pg: Playground }) {
  const banner = usePg(pg, (s) => s.banner);
  if (!banner) return null;
  return (
    <div className="banner" role="alert" data-testid="error-banner">
      <span className="banner__icon" aria-hidden="true">
        ⚠
      </span>
      <span className="banner__text">{banner}</span>
      <button type="button" className="btn btn--icon banner__close" aria-label="Dismiss" onClick={() => pg.showBanner(null)}>
        ✕
      </button>
    </div>
  );
}

function AnalysisSection({ pg }: { pg: Playground }) {
  const device = usePg(pg, (s) => s.device);
  const [open, setOpen] = useState(false);
  // A new device (a load or a reset) starts a fresh analysis.
  const keys = useRef(new WeakMap<DeviceInfo, number>());
  const nextKey = useRef(0);
  if (!device) return null;
  if (!keys.current.has(device)) keys.current.set(device, ++nextKey.current);
  return (
    <section className="analysis" aria-label="Analysis">
      <button
        type="button"
        className="btn analysis__toggle"
        data-testid="analysis-toggle"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? '▾' : '▸'} Analysis <span className="muted">slow requests, flash schedule, GC breakdown, valid copies, instrumentation cache, latency ÷ tPROG, LBA over time</span>
      </button>
      {open ? (
        <Suspense fallback={<div className="placeholder">Loading the analysis…</div>}>
          <AnalysisPanel key={keys.current.get(device)} pg={pg} device={device} />
        </Suspense>
      ) : null}
    </section>
  );
}

function Notice({ pg }: { pg: Playground }) {
  const notice = usePg(pg, (s) => s.notice);
  return (
    <div className="notice" role="status" aria-live="polite" data-testid="notice" hidden={!notice}>
      <span>{notice}</span>
      <button type="button" className="notice__close" aria-label="Dismiss" onClick={() => pg.clearNotice()}>
        ✕
      </button>
    </div>
  );
}

function Dashboard({ pg }: { pg: Playground }) {
  const phase = usePg(pg, (s) => s.phase);
  const fatal = usePg(pg, (s) => s.fatal);
  const device = usePg(pg, (s) => s.device);
  const names = usePg(pg, (s) => s.names);
  const frame = usePg(pg, (s) => s.frame);
  const loading = usePg(pg, (s) => s.loading);

  if (phase === 'failed') {
    return (
      <div className="fatal" role="alert" data-testid="fatal">
        <h2>The model could not run</h2>
        <p>{fatal}</p>
        <p className="muted">Reload the page to try again. The site needs WebAssembly and module Web Workers.</p>
      </div>
    );
  }
  if (!device || !names) {
    return (
      <div className="placeholder" aria-busy="true">
        {phase === 'starting' ? 'Starting the model…' : loading ? 'Loading the scenario…' : 'No scenario loaded.'}
      </div>
    );
  }
  return <Panels pg={pg} device={device} names={names} frame={frame} />;
}

function Panels({ pg, device, names, frame }: { pg: Playground; device: DeviceInfo; names: EnumNames; frame: Frame | null }) {
  const series = usePg(pg, (s) => s.series);
  const timeline = usePg(pg, (s) => s.timeline);
  const blocks = usePg(pg, (s) => s.blocks);
  const latency = usePg(pg, (s) => s.latency);
  const selected = usePg(pg, (s) => s.selectedBlock);
  const nowNs = frame?.nowNs ?? 0;
  return (
    <>
      <div className="dash__floor">
        <ChartPanel title="Floor plan" subtitle={floorSubtitle(device)} help={HelpText.floorPlan} exportName="floor-plan">
          <FloorPlan device={device} frame={frame} names={names} maxGridHeight={220} />
        </ChartPanel>
      </div>
      <div className="dash__metrics">
        <MetricsPanel
          metrics={frame?.metrics ?? null}
          nowNs={nowNs}
          events={frame?.events ?? 0}
          finished={frame?.finished ?? false}
          glossary={GLOSSARY}
        />
      </div>
      <SeriesPanels series={series} />
      <CdfPanel latency={latency} />
      <BlocksPanel pg={pg} device={device} names={names} blocks={blocks} selected={selected} />
      <TimelinePanel timeline={timeline} nowNs={nowNs} device={device} />
    </>
  );
}

function floorSubtitle(d: DeviceInfo): string {
  return `${d.channels} channels × ${d.ways_per_channel} dies · ${d.cell_type} · tR ${fmtUs(d.read_ns)} · tPROG ${fmtUs(d.program_ns)} · tBERS ${fmtUs(d.erase_ns)}`;
}

function fmtUs(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(ns % 1e6 ? 1 : 0)} ms` : `${Math.round(ns / 1e3)} µs`;
}

const SeriesPanels = memo(function SeriesPanels({ series }: { series: SeriesPoint[] }) {
  return (
    <>
      <div className="dash__tput">
        <ChartPanel title="Throughput" subtitle="per interval" help={HelpText.throughput} exportName="throughput">
          <TimeSeriesChart points={series} metric="throughput" height={170} />
        </ChartPanel>
      </div>
      <div className="dash__lat">
        <ChartPanel title="Latency" subtitle="mean, µs" help={HelpText.latency} exportName="latency">
          <TimeSeriesChart points={series} metric="latency" height={170} />
        </ChartPanel>
      </div>
    </>
  );
});

const CdfPanel = memo(function CdfPanel({ latency }: { latency: LatencyBuckets | null }) {
  return (
    <div className="dash__cdf">
      <ChartPanel title="Latency CDF" help={HelpText.latencyCdf} exportName="latency-cdf">
        <LatencyCdf buckets={latency} height={170} />
      </ChartPanel>
    </div>
  );
});

const BlocksPanel = memo(function BlocksPanel({
  pg,
  device,
  names,
  blocks,
  selected,
}: {
  pg: Playground;
  device: DeviceInfo;
  names: EnumNames;
  blocks: BlockSnapshot | null;
  selected: number | null;
}) {
  const [mode, setMode] = useState<BlockMapMode>('valid');
  const subtitle = useMemo(
    () => (selected !== null ? `#${selected} picked` : 'click to pick'),
    [selected],
  );
  return (
    <div className="dash__blocks">
      <ChartPanel title="Block map" subtitle={subtitle} help={HelpText.blockMap} exportName="block-map">
        <BlockMap
          device={device}
          snapshot={blocks}
          names={names}
          mode={mode}
          onModeChange={setMode}
          onBlockClick={(b) => {
            pg.selectBlock(b);
            pg.notify(`Block ${b} picked: press B (or Fail block) to fail it.`, 4000);
          }}
          maxHeight={200}
        />
      </ChartPanel>
    </div>
  );
});

const TimelinePanel = memo(function TimelinePanel({
  timeline,
  nowNs,
  device,
}: {
  timeline: TimelineEvent[];
  nowNs: number;
  device: DeviceInfo;
}) {
  return (
    <div className="dash__tl">
      <ChartPanel title="Event timeline" subtitle="GC, erases, power failure and recovery" help={HelpText.timeline} exportName="event-timeline">
        <EventTimeline events={timeline} nowNs={nowNs} device={device} />
      </ChartPanel>
    </div>
  );
});
