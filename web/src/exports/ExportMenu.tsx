// The Export menu: metrics as CSV or JSON (byte-identical to the CLI's), and
// the observation record stream as raw binary (.ssdrec) or CSV. Chart images
// come from each chart panel's own SVG / PNG buttons.
import { useCallback, useRef, useState } from 'react';
import type { Playground } from '../app/playground';
import { useDismiss, usePg } from '../app/hooks';
import { recordsToCsv } from '../bridge/records';
import { slugify } from '../scenarios/library';
import { downloadBlob, downloadText } from './download';
import { metricsToCsv, metricsToJson } from './metricsFormat';

function baseName(pg: Playground): string {
  const s = pg.state.scenario;
  if (!s) return 'ssd-playground';
  if (s.source.kind === 'library') return s.source.path.replace(/^.*\//, '').replace(/\.json$/, '');
  return slugify(s.title);
}

export function ExportMenu({ pg }: { pg: Playground }) {
  const hasRun = usePg(pg, (s) => s.frame !== null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, boxRef);

  const metrics = () => pg.state.frame?.metrics ?? null;

  const exportMetrics = (format: 'csv' | 'json') => {
    const m = metrics();
    if (!m) return;
    const name = `${baseName(pg)}-metrics.${format}`;
    if (format === 'csv') downloadText(metricsToCsv(m), name, 'text/csv');
    else downloadText(metricsToJson(m), name, 'application/json');
    pg.notify(`Saved ${name}.`, 3000);
    setOpen(false);
  };

  const exportRecords = async (format: 'bin' | 'csv') => {
    setBusy(true);
    try {
      const buffer = await pg.exportRecords();
      const count = buffer.byteLength / 32;
      const base = baseName(pg);
      if (format === 'bin') {
        downloadBlob(new Blob([buffer], { type: 'application/octet-stream' }), `${base}.ssdrec`);
        pg.notify(`Saved ${count.toLocaleString('en-US')} records to ${base}.ssdrec (32 bytes each, see docs/model/obs.md).`);
      } else {
        const names = pg.state.names?.record_kinds ?? [];
        downloadText(recordsToCsv(new Uint8Array(buffer), names), `${base}-records.csv`, 'text/csv');
        pg.notify(`Saved ${count.toLocaleString('en-US')} records to ${base}-records.csv.`);
      }
    } catch (e) {
      pg.notify(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };

  return (
    <div className="popover-anchor" ref={boxRef}>
      <button
        type="button"
        className="btn"
        data-testid="export"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={!hasRun}
        onClick={() => setOpen((o) => !o)}
        title="Download metrics or the record stream"
      >
        Export <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="popover menu" role="menu" aria-label="Export">
          <div className="menu__section">Metrics (same format as ssdplay)</div>
          <button type="button" role="menuitem" className="menu__item" data-testid="export-metrics-csv" onClick={() => exportMetrics('csv')}>
            Metrics as CSV <span className="menu__hint">metric,value</span>
          </button>
          <button type="button" role="menuitem" className="menu__item" data-testid="export-metrics-json" onClick={() => exportMetrics('json')}>
            Metrics as JSON
          </button>
          <div className="menu__section">Observation records (since load)</div>
          <button
            type="button"
            role="menuitem"
            className="menu__item"
            data-testid="export-records-bin"
            disabled={busy}
            onClick={() => void exportRecords('bin')}
          >
            Records, binary <span className="menu__hint">.ssdrec</span>
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu__item"
            data-testid="export-records-csv"
            disabled={busy}
            onClick={() => void exportRecords('csv')}
          >
            Records as CSV
          </button>
          <div className="menu__foot">Charts: use the SVG / PNG buttons on each panel.</div>
        </div>
      ) : null}
    </div>
  );
}
