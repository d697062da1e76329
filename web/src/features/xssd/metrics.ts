// The fast side's metrics ("xssd" and "db_log" objects of the metrics JSON),
// read defensively: a field the model does not report reads as 0 / "".
// Pure: unit-tested.

export interface SecondaryMetrics {
  active: boolean;
  linkUp: boolean;
  counter: number;
  shadow: number;
  mirroredBytes: number;
  drainedBytes: number;
  replDelayCount: number;
  replDelayMinUs: number;
  replDelayP50Us: number;
  replDelayP99Us: number;
  replDelayMaxUs: number;
}

export interface CrashMetrics {
  atNs: number;
  hostAcknowledged: number;
  counterAtLoss: number;
  queuedLost: number;
  beyondGap: number;
  destagedOnCapacitors: number;
  capacitorNs: number;
  durableAfterReboot: number;
  extraTail: number;
  lostAcknowledged: number;
}

export interface XssdMetrics {
  backing: string;
  ringBytes: number;
  queueBytes: number;
  writeMode: string;
  bytesArrived: number;
  creditCounter: number;
  hostTail: number;
  hostAcknowledged: number;
  counterReads: number;
  maxQueueBytes: number;
  ringFullWaits: number;
  overrunBytes: number;
  statusBits: number;
  destagePages: number;
  destageFillerPages: number;
  destageFillerBytes: number;
  destagePayloadBytes: number;
  destageRetries: number;
  destageDurable: number;
  destagePageUsMean: number;
  ingestMbps: number;
  role: string;
  updateShare: number;
  secondaries: SecondaryMetrics[];
  crash: CrashMetrics | null;
}

export interface DbLogMetrics {
  target: string;
  workers: number;
  transactions: number;
  groups: number;
  logBytes: number;
  txnPerS: number;
  logMbps: number;
  latencyMeanUs: number;
  latencyP50Us: number;
  latencyP99Us: number;
  groupBytesMean: number;
  flushUsMean: number;
  timeoutGroups: number;
  workerWaits: number;
  fsyncErrors: number;
  fatalOverrun: boolean;
  tailReadBytes: number;
  tailExtraBytes: number;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null;
}
const num = (o: Obj, k: string): number => {
  const v = o[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
};
const str = (o: Obj, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
const bool = (o: Obj, k: string): boolean => o[k] === true;

/** metrics.xssd as a typed object, or null when the run has no fast side. */
export function readXssdMetrics(metrics: unknown): XssdMetrics | null {
  const x = obj(obj(metrics)?.xssd);
  if (!x) return null;
  const secs = Array.isArray(x.secondaries) ? x.secondaries : [];
  const c = obj(x.crash);
  return {
    backing: str(x, 'backing'),
    ringBytes: num(x, 'ring_bytes'),
    queueBytes: num(x, 'queue_bytes'),
    writeMode: str(x, 'write_mode'),
    bytesArrived: num(x, 'bytes_arrived'),
    creditCounter: num(x, 'credit_counter'),
    hostTail: num(x, 'host_tail'),
    hostAcknowledged: num(x, 'host_acknowledged'),
    counterReads: num(x, 'counter_reads'),
    maxQueueBytes: num(x, 'max_queue_bytes'),
    ringFullWaits: num(x, 'ring_full_waits'),
    overrunBytes: num(x, 'overrun_bytes'),
    statusBits: num(x, 'status_bits'),
    destagePages: num(x, 'destage_pages'),
    destageFillerPages: num(x, 'destage_filler_pages'),
    destageFillerBytes: num(x, 'destage_filler_bytes'),
    destagePayloadBytes: num(x, 'destage_payload_bytes'),
    destageRetries: num(x, 'destage_retries'),
    destageDurable: num(x, 'destage_durable'),
    destagePageUsMean: num(x, 'destage_page_us_mean'),
    ingestMbps: num(x, 'ingest_mbps'),
    role: str(x, 'role'),
    updateShare: num(x, 'update_share'),
    secondaries: secs.map((s) => readSecondary(obj(s) ?? {})),
    crash: c
      ? {
          atNs: num(c, 'at_ns'),
          hostAcknowledged: num(c, 'host_acknowledged'),
          counterAtLoss: num(c, 'counter_at_loss'),
          queuedLost: num(c, 'queued_lost'),
          beyondGap: num(c, 'beyond_gap'),
          destagedOnCapacitors: num(c, 'destaged_on_capacitors'),
          capacitorNs: num(c, 'capacitor_ns'),
          durableAfterReboot: num(c, 'durable_after_reboot'),
          extraTail: num(c, 'extra_tail'),
          lostAcknowledged: num(c, 'lost_acknowledged'),
        }
      : null,
  };
}

function readSecondary(s: Obj): SecondaryMetrics {
  return {
    active: bool(s, 'active'),
    linkUp: bool(s, 'link_up'),
    counter: num(s, 'counter'),
    shadow: num(s, 'shadow'),
    mirroredBytes: num(s, 'mirrored_bytes'),
    drainedBytes: num(s, 'drained_bytes'),
    replDelayCount: num(s, 'repl_delay_count'),
    replDelayMinUs: num(s, 'repl_delay_min_us'),
    replDelayP50Us: num(s, 'repl_delay_p50_us'),
    replDelayP99Us: num(s, 'repl_delay_p99_us'),
    replDelayMaxUs: num(s, 'repl_delay_max_us'),
  };
}

/** metrics.db_log as a typed object, or null when the run has no database log writer. */
export function readDbLogMetrics(metrics: unknown): DbLogMetrics | null {
  const d = obj(obj(metrics)?.db_log);
  if (!d) return null;
  return {
    target: str(d, 'target'),
    workers: num(d, 'workers'),
    transactions: num(d, 'transactions'),
    groups: num(d, 'groups'),
    logBytes: num(d, 'log_bytes'),
    txnPerS: num(d, 'txn_per_s'),
    logMbps: num(d, 'log_mbps'),
    latencyMeanUs: num(d, 'latency_mean_us'),
    latencyP50Us: num(d, 'latency_p50_us'),
    latencyP99Us: num(d, 'latency_p99_us'),
    groupBytesMean: num(d, 'group_bytes_mean'),
    flushUsMean: num(d, 'flush_us_mean'),
    timeoutGroups: num(d, 'timeout_groups'),
    workerWaits: num(d, 'worker_waits'),
    fsyncErrors: num(d, 'fsync_errors'),
    fatalOverrun: bool(d, 'fatal_overrun'),
    tailReadBytes: num(d, 'tail_read_bytes'),
    tailExtraBytes: num(d, 'tail_extra_bytes'),
  };
}
