// The X-SSD section under the dashboard, offered only when the scenario turns
// on the fast side or the database log writer. The panel itself is loaded
// only when needed, like the analysis panel.
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import type { DeviceInfo } from '../../bridge/protocol';
import { usePg } from '../../app/hooks';
import type { Playground } from '../../app/playground';
import { readXssdScenario, wantsXssdPanel } from './scenario';

const XssdPanel = lazy(() => import('./XssdPanel'));

/** The collapsible X-SSD section; nothing for scenarios without a fast side or a log writer. */
export function XssdSection({ pg }: { pg: Playground }) {
  const device = usePg(pg, (s) => s.device);
  const text = usePg(pg, (s) => s.scenario?.text ?? '');
  const config = useMemo(() => readXssdScenario(text), [text]);
  const [open, setOpen] = useState(true);
  // A new device (a load or a reset) starts the views afresh.
  const keys = useRef(new WeakMap<DeviceInfo, number>());
  const nextKey = useRef(0);
  if (!device || !wantsXssdPanel(config)) return null;
  if (!keys.current.has(device)) keys.current.set(device, ++nextKey.current);
  return (
    <section className="analysis" aria-label="X-SSD" data-testid="xssd-section">
      <button
        type="button"
        className="btn analysis__toggle"
        data-testid="xssd-toggle"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? '▾' : '▸'} {config.xssd ? 'X-SSD fast side' : 'Database log'}{' '}
        <span className="muted">
          {config.xssd ? 'CMB ring, credit counter, destage ring, replication, crash protocol, database log' : 'group commits, latency, throughput'}
        </span>
      </button>
      {open ? (
        <Suspense fallback={<div className="placeholder">Loading the X-SSD views…</div>}>
          <XssdPanel key={keys.current.get(device)} pg={pg} config={config} />
        </Suspense>
      ) : null}
    </section>
  );
}
