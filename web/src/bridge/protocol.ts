// The typed contract between the UI thread and the model worker. Everything the
// views draw arrives in a Frame; bulk arrays are transferred, never copied
// through JSON.

/** Static facts about the loaded device (from the model's deviceJson). */
export interface DeviceInfo {
  channels: number;
  ways_per_channel: number;
  chips_per_channel: number;
  dies_per_chip: number;
  planes_per_die: number;
  blocks_per_plane: number;
  pages_per_block: number;
  page_bytes: number;
  dies: number;
  planes: number;
  blocks: number;
  logical_pages: number;
  cell_type: string;
  read_ns: number;
  program_ns: number;
  erase_ns: number;
  page_transfer_ns: number;
  buffer_slots: number;
  flows: { name: string; queue_depth: number }[];
  title: string;
  seed: number;
}

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

/** The metrics object, identical to `ssdplay run --format json`. */
export interface Metrics {
  sim: { end_ns: number; events: number; wall_s: number; time_limited: boolean; stalled: boolean };
  host: {
    requests: number;
    reads: number;
    writes: number;
    trims: number;
    bytes_read: number;
    bytes_written: number;
    iops: number;
    mbps: number;
    failed_by_power: number;
    dropped_arrivals: number;
    read: { lat_us: LatencySummary };
    write: { lat_us: LatencySummary };
    pcie: { down_utilization: number; up_utilization: number };
  };
  flash: {
    reads: number;
    programs: number;
    erases: number;
    channel_utilization: number;
    die_utilization: number;
    bad_blocks: number;
    erase_count: { min: number; max: number };
  };
  ftl: {
    waf: number;
    host_pages_written: number;
    flush_programs: number;
    rmw_reads: number;
    buffer_read_hits: number;
    buffer_write_hits: number;
    program_failures: number;
    erase_failures: number;
    wear_level_migrations: number;
    checkpoints: number;
    checkpoint_pages: number;
  };
  gc: { runs: number; page_copies: number; erases: number; write_stalls: number };
  power: {
    failures: number;
    lost_pages: number;
    saved_pages: number;
    torn_pages: number;
    last_recovery_ns: number;
    recovery_pages_scanned: number;
  };
  records: { written: number; lost: number };
  /** Present when device.instrumentation.enabled (the instrumented SSD). */
  instrumentation?: {
    capacity_records: number;
    held_records: number;
    overwritten: number;
    history_ms: number;
    records_per_s: number;
    capacity_s: number;
    triggered: boolean;
    frozen: boolean;
    frozen_at_ns: number;
    transfers: number;
    bytes_transferred: number;
    dram_utilization: number;
  };
}

/** Names for the enum values records and snapshots carry as numbers. */
export interface EnumNames {
  record_kinds: string[];
  recovery_steps: string[];
  die_states: string[];
  block_states: string[];
  flash_op_kinds: string[];
  op_purposes: string[];
}

/** One point of the throughput/latency time series (one perf interval). */
export interface SeriesPoint {
  tNs: number;
  iops: number;
  mbps: number;
  /** Mean latency of the sampled requests completed in the interval, µs (NaN if none). */
  readLatUs: number;
  writeLatUs: number;
}

export type TimelineKind =
  | 'gc'
  | 'erase'
  | 'checkpoint'
  | 'block_retired'
  | 'wear_level'
  | 'power_fail'
  | 'recovery_step';

/** Something that happened over an interval (or at an instant: endNs === startNs). */
export interface TimelineEvent {
  kind: TimelineKind;
  startNs: number;
  endNs: number;
  /** Plane for GC/erase/retire/wear-level events; -1 when device-wide. */
  unit: number;
  label: string;
  detail: string;
}

/** What the views need to draw one frame. */
export interface Frame {
  nowNs: number;
  events: number;
  finished: boolean;
  recovering: boolean;
  maxTimeNs: number;
  metrics: Metrics;
  /** DieState per die (index into EnumNames.die_states). */
  dieState: Uint8Array;
  /** Ops queued per die. */
  dieQueue: Uint16Array;
  /** Flash ops completed per die since the previous frame: [read, program, erase, copyback] x dies. */
  dieOps: Uint32Array;
  /** 1 while the channel bus is transferring. */
  channelBusy: Uint8Array;
  /** Commands outstanding per flow (its NVMe queue occupancy). */
  flowOutstanding: Uint16Array;
  bufferDirty: number;
  bufferCapacity: number;
  waitingWrites: number;
  /** New series points and timeline events since the previous frame. */
  series: SeriesPoint[];
  timeline: TimelineEvent[];
  recordsSeen: number;
}

/** Per-block state for the block map: 4 words per block. */
export interface BlockSnapshot {
  /** [valid pages, erase count, BlockState, flags(bit0 GC victim, bit1 open)] x blocks */
  words: Uint32Array;
}

/** Latency CDF source: [upper_ns, count] pairs, ascending. */
export interface LatencyBuckets {
  read: Float64Array;
  write: Float64Array;
}

export interface LoadResult {
  ok: boolean;
  /** Validation messages, one per line, each naming the JSON path. */
  error: string;
  device: DeviceInfo | null;
}

/** Instrumentation vendor commands, in the model's order (InstrCommandKind). */
export const INSTR_COMMANDS = ['transfer', 'freeze', 'resume', 'clear', 'sample', 'enable_point', 'disable_point'] as const;
export type InstrCommand = (typeof INSTR_COMMANDS)[number];

/** Stages of a request, in the analysis's order (core/src/obs/analysis.h). */
export const REQUEST_STAGES = ['fetch', 'translate', 'buffer_wait', 'flash', 'transfer', 'completion'] as const;
/** Columns of RequestRows.rows; one row per complete request. */
export const REQUEST_ROW = {
  id: 0,
  flow: 1,
  isRead: 2,
  offsetBytes: 3,
  bytes: 4,
  submitNs: 5,
  latencyNs: 6,
  /** Index into REQUEST_STAGES of the stage to blame, or -1. */
  blamed: 7,
  /** First of the six stage durations (ns), in REQUEST_STAGES order. */
  stages: 8,
  width: 14,
} as const;

export interface RequestRows {
  rows: Float64Array;
}

/** One request explained from the records (the analysis's Explanation). */
export interface RequestExplanation {
  found: boolean;
  id?: number;
  flow?: number;
  is_read?: boolean;
  is_trim?: boolean;
  offset_bytes?: number;
  bytes?: number;
  submit_ns?: number;
  latency_ns?: number;
  stages_ns?: Record<string, number>;
  baselines_ns?: Record<string, number>;
  blamed?: string;
  excess_ns?: number;
  has_flash?: boolean;
  die?: number;
  die_wait_ns?: number;
  op_ns?: number;
  die_ops?: { kind: string; purpose: string; count: number; busy_ns: number }[];
  buffer_wait_ns?: number;
  gc_planes_active?: number;
  flushes_during_wait?: number;
  sentence?: string;
  critical_slice?: { die: number; scheduled_ns: number; start_ns: number; end_ns: number };
}

/** The worker's API (wrapped with Comlink on the UI side). */
export interface ModelApi {
  init(wasmUrl: string): Promise<EnumNames>;
  /** Checks a scenario without touching the loaded one: "" or the problems, one per line. */
  validate(scenarioJson: string): Promise<string>;
  load(scenarioJson: string): Promise<LoadResult>;
  /**
   * Advances the model by up to `simNs` of simulated time, spending at most
   * `wallBudgetMs` of wall time, then returns a frame.
   */
  advance(simNs: number, wallBudgetMs: number): Promise<Frame>;
  /** Processes exactly one event and returns a frame (single-step). */
  step(): Promise<Frame>;
  /** Runs to the end of the workload (bounded by the scenario's time limit). */
  runToEnd(wallBudgetMs: number): Promise<Frame>;
  frame(): Promise<Frame>;
  blocks(): Promise<BlockSnapshot>;
  latency(): Promise<LatencyBuckets>;
  powerFail(): Promise<Frame>;
  failBlock(block: number): Promise<string>;
  /** The records seen so far (up to the export cap) as raw 32-byte records. */
  exportRecords(): Promise<ArrayBuffer>;
  /** `ssdplay analyze --format json` over the records seen so far (slowest `topN` explained). */
  analyze(topN: number): Promise<unknown>;
  /** One request explained from the records seen so far. */
  explain(id: number): Promise<RequestExplanation>;
  /** Every complete request of the records seen so far (REQUEST_ROW layout). */
  requestRows(): Promise<RequestRows>;
  /** Runs an instrumentation vendor command now; "" or why not. Returns the new frame too. */
  instrumentationCommand(command: InstrCommand, value: number): Promise<{ error: string; frame: Frame | null }>;
  /** Records delivered by the last "transfer" vendor command (32 bytes each). */
  transferredRecords(): Promise<ArrayBuffer>;
}
