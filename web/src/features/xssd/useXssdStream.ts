// The fast-side records for the X-SSD views: fetched from the worker's record
// export (the records seen since the scenario was loaded) while the panel is
// open, a few times a second while the model runs and once more whenever it
// pauses or finishes.
import { useEffect, useRef, useState } from 'react';
import { usePg } from '../../app/hooks';
import type { Playground } from '../../app/playground';
import { decodeXssd, emptyStream, type XssdStream } from './stream';

/** Shortest wall time between two fetches while running (ms). */
const MIN_INTERVAL_MS = 400;
/** A fetch may take at most this share of the wall time. */
const MAX_SHARE = 0.1;

export interface XssdRecords {
  stream: XssdStream;
  /** Simulated time when the records were fetched (ns). */
  atNs: number;
}

/** The decoded fast-side records, refreshed as the run goes on. */
export function useXssdStream(pg: Playground): XssdRecords {
  const events = usePg(pg, (s) => s.frame?.events ?? 0);
  const idle = usePg(pg, (s) => !s.playing && !s.runningToEnd);
  const [records, setRecords] = useState<XssdRecords>(() => ({ stream: emptyStream(), atNs: 0 }));
  const busy = useRef(false);
  const fetchedAt = useRef<number | null>(null);
  const lastFetchMs = useRef(-Infinity);
  const interval = useRef(MIN_INTERVAL_MS);
  const [retry, setRetry] = useState(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (busy.current || events === fetchedAt.current) return undefined;
    const wait = idle ? 0 : lastFetchMs.current + interval.current - performance.now();
    if (wait > 0) {
      // Nothing new may arrive (a slow speed): look again when the wait is over.
      const timer = setTimeout(() => setRetry((r) => r + 1), wait);
      return () => clearTimeout(timer);
    }
    busy.current = true;
    const started = performance.now();
    pg.exportRecords().then(
      (buf) => {
        busy.current = false;
        const took = performance.now() - started;
        lastFetchMs.current = performance.now();
        interval.current = Math.max(MIN_INTERVAL_MS, took / MAX_SHARE);
        fetchedAt.current = events;
        if (!mounted.current) return;
        setRecords({ stream: decodeXssd(new Uint8Array(buf)), atNs: pg.state.frame?.nowNs ?? 0 });
        setRetry((r) => r + 1); // the run may have moved on meanwhile
      },
      () => {
        busy.current = false;
        lastFetchMs.current = performance.now();
      },
    );
    return undefined;
  }, [pg, events, idle, retry]);

  return records;
}
