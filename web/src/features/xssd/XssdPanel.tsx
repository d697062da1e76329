// The X-SSD panel (lazy-loaded): the fast side of an X-SSD / VILLARS device and
// the database log writer that uses it. The ring follows the metrics of every
// frame; the other views redraw from the fast-side records a few times a second.
import { usePg } from '../../app/hooks';
import type { Playground } from '../../app/playground';
import { ChartPanel } from '../../views';
import { CmbRing } from './CmbRing';
import { CrashTimeline } from './CrashTimeline';
import { CreditChart } from './CreditChart';
import { CommitChart, DbLogSummary } from './DbLog';
import { DestageRing } from './DestageRing';
import { formatBytes, formatMbps } from './format';
import { XssdHelp } from './helpText';
import { readDbLogMetrics, readXssdMetrics } from './metrics';
import { ReplicationLinks } from './Replication';
import { ReplicationDelay } from './ReplicationDelay';
import type { XssdScenario } from './scenario';
import { useXssdStream } from './useXssdStream';
import './xssd.css';

/** Every X-SSD view the scenario has data for, laid out two per row. */
export default function XssdPanel({ pg, config }: { pg: Playground; config: XssdScenario }) {
  const metrics = usePg(pg, (s) => s.frame?.metrics ?? null);
  const nowNs = usePg(pg, (s) => s.frame?.nowNs ?? 0);
  const { stream, atNs } = useXssdStream(pg);
  const x = readXssdMetrics(metrics);
  const db = readDbLogMetrics(metrics);
  const endNs = Math.max(stream.lastNs, atNs, 1);
  if (!metrics) return <div className="placeholder">Waiting for the model…</div>;
  const queueBytes = x?.queueBytes || config.queueBytes;
  return (
    <div className="xssd" data-testid="xssd-panel">
      {x ? (
        <>
          <ChartPanel
            title="CMB ring"
            subtitle={`${x.backing.toUpperCase()} · ${formatBytes(x.ringBytes)} · ${x.writeMode} · ${formatMbps(x.ingestMbps)} in`}
            help={XssdHelp.ring}
            exportName="xssd-cmb-ring"
          >
            <CmbRing x={x} stream={stream} queueBytes={queueBytes} />
          </ChartPanel>
          <ChartPanel
            title="Credit counter"
            subtitle={`${x.counterReads.toLocaleString('en-US')} reads by the host`}
            help={XssdHelp.credit}
            exportName="xssd-credit-counter"
          >
            <CreditChart stream={stream} queueBytes={queueBytes} endNs={endNs} />
          </ChartPanel>
          <ChartPanel
            title="Destage ring on flash"
            subtitle={`${x.destagePages.toLocaleString('en-US')} pages · ${x.destageFillerPages.toLocaleString('en-US')} with filler · ${Math.round(x.destagePageUsMean)} µs per page`}
            help={XssdHelp.destage}
            exportName="xssd-destage-ring"
          >
            <DestageRing stream={stream} ringPages={config.ringPages} endNs={endNs} />
          </ChartPanel>
        </>
      ) : null}
      {db ? (
        <ChartPanel
          title="Database log"
          subtitle={`${db.transactions.toLocaleString('en-US')} transactions · ${db.groups.toLocaleString('en-US')} group commits`}
          help={XssdHelp.dblog}
          exportName="xssd-group-commits"
          className={x ? '' : 'xssd__wide'}
        >
          <DbLogSummary d={db} />
          <CommitChart commits={stream.commits} endNs={endNs} />
        </ChartPanel>
      ) : null}
      {x && x.secondaries.length > 0 ? (
        <>
          <ChartPanel
            title="Replication"
            subtitle={`${x.role} · ${config.replication} · ${x.secondaries.length} secondar${x.secondaries.length === 1 ? 'y' : 'ies'}`}
            help={XssdHelp.links}
            exportName="xssd-replication"
          >
            <ReplicationLinks x={x} stream={stream} endNs={endNs} />
          </ChartPanel>
          <ChartPanel title="Replication delay" subtitle="write to shadow counter, µs" help={XssdHelp.delay} exportName="xssd-replication-delay">
            <ReplicationDelay x={x} stream={stream} />
          </ChartPanel>
        </>
      ) : null}
      {x ? (
        <ChartPanel
          title="Crash protocol"
          subtitle={x.crash ? `power lost at ${(x.crash.atNs / 1e6).toFixed(3)} ms` : 'no power loss yet'}
          help={XssdHelp.crash}
          exportName="xssd-crash-protocol"
          className="xssd__wide"
        >
          <CrashTimeline records={stream.crash} crash={x.crash} queueBytes={queueBytes} nowNs={nowNs} />
        </ChartPanel>
      ) : null}
    </div>
  );
}
