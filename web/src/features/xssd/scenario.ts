// What the X-SSD views need from the scenario text: whether the fast side or
// the database log writer is on, and the few sizes the records do not carry.
// Defaults are the scenario format's. Pure: unit-tested; kept small because the
// page imports it eagerly to decide whether to offer the X-SSD panel.

export interface XssdScenario {
  /** device.xssd.enabled */
  xssd: boolean;
  /** workload.db_log.enabled */
  dbLog: boolean;
  /** device.xssd.destage.ring_pages: logical pages of the destage ring on flash. */
  ringPages: number;
  /** device.xssd.cmb.queue_bytes: the intake queue negotiated with the host. */
  queueBytes: number;
  /** device.xssd.transport.secondaries.length (0 unless the role is primary). */
  secondaries: number;
  /** device.xssd.transport.replication */
  replication: string;
  /** workload.db_log.target */
  target: string;
}

/** The scenario format's defaults for the fields read here. */
export const XSSD_DEFAULTS = { ringPages: 4096, queueBytes: 32768, replication: 'eager', target: 'cmb' } as const;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const posInt = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : d);
const text = (v: unknown, d: string): string => (typeof v === 'string' && v ? v : d);

/** Reads the fast-side settings from scenario JSON text; null if the text is not a JSON object. */
export function readXssdScenario(json: string): XssdScenario | null {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch {
    return null;
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return null;
  const x = obj(obj(obj(root).device).xssd);
  const log = obj(obj(obj(root).workload).db_log);
  const transport = obj(x.transport);
  const secondaries = Array.isArray(transport.secondaries) ? transport.secondaries.length : 0;
  return {
    xssd: x.enabled === true,
    dbLog: log.enabled === true,
    ringPages: posInt(obj(x.destage).ring_pages, XSSD_DEFAULTS.ringPages),
    queueBytes: posInt(obj(x.cmb).queue_bytes, XSSD_DEFAULTS.queueBytes),
    secondaries: transport.role === 'primary' ? secondaries : 0,
    replication: text(transport.replication, XSSD_DEFAULTS.replication),
    target: text(log.target, XSSD_DEFAULTS.target),
  };
}

/** True when the X-SSD panel has something to show for this scenario. */
export function wantsXssdPanel(s: XssdScenario | null): s is XssdScenario {
  return s !== null && (s.xssd || s.dbLog);
}
