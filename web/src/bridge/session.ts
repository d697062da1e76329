// ModelSession: the worker-side owner of one wasm Model. It advances the model
// in wall-clock-bounded slices, drains the observation records and turns them
// into view-ready series and timeline events, so the UI thread only draws.
// Pure TypeScript over the module interface: unit-testable in Node.

import type { SsdpModule, WasmModel } from './ssdp-module';
import type {
  BlockSnapshot,
  DeviceInfo,
  EnumNames,
  Frame,
  LatencyBuckets,
  LoadResult,
  Metrics,
  RequestExplanation,
  RequestRows,
  SeriesPoint,
  TimelineEvent,
  InstrCommand,
} from './protocol';
import { INSTR_COMMANDS } from './protocol';
import { RECORD_BYTES, RecordKind, decodeRecords, type DecodedRecord } from './records';

/** Records kept for export; older ones are dropped beyond this. */
export const EXPORT_CAP_BYTES = 64 << 20;
const DRAIN_BATCH = 1 << 15;
const EVENTS_PER_SLICE = 4096;
/** Smallest stretch of simulated time run between wall-clock checks. */
const MIN_SLICE_NS = 10_000;

export type Clock = () => number;

export class ModelSession {
  private model: WasmModel | null = null;
  private device: DeviceInfo | null = null;
  private series: SeriesPoint[] = [];
  private timeline: TimelineEvent[] = [];
  private dieOps: Uint32Array = new Uint32Array(0);
  private readLatSum = 0;
  private readLatCount = 0;
  private writeLatSum = 0;
  private writeLatCount = 0;
  private lastPerfNs = 0;
  private openGc = new Map<number, { startNs: number; victim: number; valid: number }>();
  private exportChunks: Uint8Array[] = [];
  private exportBytes = 0;
  private recordsSeen = 0;

  constructor(
    private readonly module: SsdpModule,
    private readonly clock: Clock,
  ) {}

  enumNames(): EnumNames {
    return JSON.parse(this.module.enumNamesJson()) as EnumNames;
  }

  /** Checks a scenario without replacing the loaded model: "" or the problems. */
  validate(scenarioJson: string): string {
    return this.module.validateScenario(scenarioJson);
  }

  load(scenarioJson: string): LoadResult {
    this.model?.delete();
    this.model = new this.module.Model();
    const error = this.model.load(scenarioJson);
    this.resetAggregates();
    if (error) {
      this.device = null;
      return { ok: false, error, device: null };
    }
    this.device = JSON.parse(this.model.deviceJson()) as DeviceInfo;
    this.dieOps = new Uint32Array(this.device.dies * 4);
    return { ok: true, error: '', device: this.device };
  }

  advance(simNs: number, wallBudgetMs: number): Frame {
    const m = this.requireModel();
    const target = m.now() + Math.max(0, simNs);
    const deadline = this.clock() + wallBudgetMs;
    // Run in small event slices so a dense stretch of simulated time cannot
    // overrun the frame budget.
    while (!m.finished() && m.now() < target && this.clock() < deadline) {
      const slice = Math.max(MIN_SLICE_NS, Math.ceil((target - m.now()) / 8));
      m.runUntil(Math.min(target, m.now() + slice));
      this.drain();
    }
    this.drain();
    return this.frame();
  }

  step(): Frame {
    this.requireModel().runEvents(1);
    this.drain();
    return this.frame();
  }

  runToEnd(wallBudgetMs: number): Frame {
    const m = this.requireModel();
    const deadline = this.clock() + wallBudgetMs;
    while (!m.finished() && this.clock() < deadline) {
      m.runEvents(EVENTS_PER_SLICE * 16);
      this.drain();
    }
    this.drain();
    return this.frame();
  }

  powerFail(): Frame {
    this.requireModel().powerFail();
    this.drain();
    return this.frame();
  }

  failBlock(block: number): string {
    const message = this.requireModel().failBlock(block);
    this.drain();
    return message;
  }

  metrics(): Metrics {
    return JSON.parse(this.requireModel().metricsJson()) as Metrics;
  }

  frame(): Frame {
    const m = this.requireModel();
    const device = this.device!;
    const state = m.deviceState();
    const dies = device.dies;
    const channels = device.channels;
    const flows = device.flows.length;
    const dieState = new Uint8Array(dies);
    const dieQueue = new Uint16Array(dies);
    const channelBusy = new Uint8Array(channels);
    const flowOutstanding = new Uint16Array(flows);
    for (let d = 0; d < dies; d++) {
      dieState[d] = state[d]!;
      dieQueue[d] = Math.min(0xffff, state[dies + d]!);
    }
    for (let c = 0; c < channels; c++) channelBusy[c] = state[2 * dies + c]!;
    const base = 2 * dies + channels;
    for (let f = 0; f < flows; f++) flowOutstanding[f] = Math.min(0xffff, state[base + f]!);
    const tail = base + flows;
    const frame: Frame = {
      nowNs: m.now(),
      events: m.events(),
      finished: m.finished(),
      recovering: m.recovering(),
      maxTimeNs: m.maxTimeNs(),
      metrics: this.metrics(),
      dieState,
      dieQueue,
      dieOps: this.dieOps,
      channelBusy,
      flowOutstanding,
      bufferDirty: state[tail]!,
      bufferCapacity: state[tail + 1]!,
      waitingWrites: state[tail + 2]!,
      series: this.series,
      timeline: this.timeline,
      recordsSeen: this.recordsSeen,
    };
    this.series = [];
    this.timeline = [];
    this.dieOps = new Uint32Array(dies * 4);
    return frame;
  }

  blocks(): BlockSnapshot {
    return { words: this.requireModel().blockState().slice() };
  }

  latency(): LatencyBuckets {
    const m = this.requireModel();
    return { read: m.latencyBuckets(true).slice(), write: m.latencyBuckets(false).slice() };
  }

  analyze(topN: number): unknown {
    return JSON.parse(this.requireModel().analyzeRecords(this.recordBytes(), topN)) as unknown;
  }

  explain(id: number): RequestExplanation {
    return JSON.parse(this.requireModel().explainRequest(this.recordBytes(), id)) as RequestExplanation;
  }

  requestRows(): RequestRows {
    return { rows: this.requireModel().requestRows(this.recordBytes()).slice() };
  }

  instrumentationCommand(command: InstrCommand, value: number): { error: string; frame: Frame | null } {
    const kind = INSTR_COMMANDS.indexOf(command);
    const error = this.requireModel().instrumentationCommand(kind, value);
    this.drain();
    return { error, frame: error ? null : this.frame() };
  }

  transferredRecords(): ArrayBuffer {
    return this.requireModel().transferredRecords().slice().buffer;
  }

  /** The kept records as one contiguous array (the analysis input). */
  private recordBytes(): Uint8Array {
    return new Uint8Array(this.exportRecords());
  }

  exportRecords(): ArrayBuffer {
    const out = new Uint8Array(this.exportBytes);
    let offset = 0;
    for (const chunk of this.exportChunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out.buffer;
  }

  private requireModel(): WasmModel {
    if (!this.model || !this.device) throw new Error('no scenario loaded');
    return this.model;
  }

  private resetAggregates(): void {
    this.series = [];
    this.timeline = [];
    this.readLatSum = this.readLatCount = this.writeLatSum = this.writeLatCount = 0;
    this.lastPerfNs = 0;
    this.openGc.clear();
    this.exportChunks = [];
    this.exportBytes = 0;
    this.recordsSeen = 0;
  }

  private drain(): void {
    const m = this.model!;
    for (;;) {
      const view = m.drainRecords(DRAIN_BATCH);
      if (view.length === 0) return;
      const bytes = view.slice(); // the view dies with the next wasm call
      this.keepForExport(bytes);
      this.recordsSeen += bytes.length / RECORD_BYTES;
      decodeRecords(bytes, (r) => this.consume(r));
      if (bytes.length < DRAIN_BATCH * RECORD_BYTES) return;
    }
  }

  private keepForExport(bytes: Uint8Array): void {
    this.exportChunks.push(bytes);
    this.exportBytes += bytes.length;
    while (this.exportBytes > EXPORT_CAP_BYTES && this.exportChunks.length > 1) {
      this.exportBytes -= this.exportChunks.shift()!.length;
    }
  }

  private consume(r: DecodedRecord): void {
    switch (r.kind) {
      case RecordKind.RequestComplete: {
        const latUs = r.a / 1000;
        if (r.b & 1) {
          this.readLatSum += latUs;
          this.readLatCount++;
        } else {
          this.writeLatSum += latUs;
          this.writeLatCount++;
        }
        break;
      }
      case RecordKind.PerfIndex: {
        const dt = (r.timeNs - this.lastPerfNs) / 1e9;
        this.lastPerfNs = r.timeNs;
        if (dt > 0) {
          this.series.push({
            tNs: r.timeNs,
            iops: r.a / dt,
            mbps: r.b / 1e6 / dt,
            readLatUs: this.readLatCount ? this.readLatSum / this.readLatCount : NaN,
            writeLatUs: this.writeLatCount ? this.writeLatSum / this.writeLatCount : NaN,
          });
        }
        this.readLatSum = this.readLatCount = this.writeLatSum = this.writeLatCount = 0;
        break;
      }
      case RecordKind.FlashOpEnd: {
        const slot = r.unit * 4 + Math.min(3, r.id);
        if (slot < this.dieOps.length) this.dieOps[slot]!++;
        break;
      }
      case RecordKind.GcStart:
        this.openGc.set(r.unit, { startNs: r.timeNs, victim: r.id, valid: r.a });
        break;
      case RecordKind.GcEnd: {
        const open = this.openGc.get(r.unit);
        this.openGc.delete(r.unit);
        this.timeline.push({
          kind: 'gc',
          startNs: open ? open.startNs : r.timeNs - r.b,
          endNs: r.timeNs,
          unit: r.unit,
          label: `GC plane ${r.unit}`,
          detail: `victim block ${r.id}: ${r.a} valid pages copied${open ? ` (${open.valid} valid at start)` : ''}`,
        });
        break;
      }
      case RecordKind.Erase:
        this.timeline.push({
          kind: 'erase',
          startNs: r.timeNs,
          endNs: r.timeNs,
          unit: r.unit,
          label: `erase block ${r.id}`,
          detail: `${r.b ? 'FAILED, ' : ''}erase count now ${r.a}`,
        });
        break;
      case RecordKind.BlockRetired:
        this.timeline.push({
          kind: 'block_retired',
          startNs: r.timeNs,
          endNs: r.timeNs,
          unit: r.unit,
          label: `block ${r.id} retired`,
          detail: ['', 'program failure', 'erase failure', 'worn out', 'factory bad'][r.a] ?? `reason ${r.a}`,
        });
        break;
      case RecordKind.WearLevel:
        this.timeline.push({
          kind: 'wear_level',
          startNs: r.timeNs,
          endNs: r.timeNs,
          unit: r.unit,
          label: `wear leveling: move block ${r.id}`,
          detail: `erase-count spread ${r.a} above the threshold`,
        });
        break;
      case RecordKind.Checkpoint:
        this.timeline.push({
          kind: 'checkpoint',
          startNs: r.timeNs,
          endNs: r.timeNs,
          unit: -1,
          label: 'mapping checkpoint',
          detail: `${r.a} mapping pages written`,
        });
        break;
      case RecordKind.PowerFail:
        this.timeline.push({
          kind: 'power_fail',
          startNs: r.timeNs,
          endNs: r.timeNs,
          unit: -1,
          label: 'power failure',
          detail: `${r.a} dirty buffer pages, ${r.b} saved by the capacitors`,
        });
        break;
      case RecordKind.RecoveryStep:
        this.timeline.push({
          kind: 'recovery_step',
          startNs: r.a,
          endNs: r.a + r.b,
          unit: -1,
          label: RECOVERY_STEP_LABELS[r.id] ?? `step ${r.id}`,
          detail: `${(r.b / 1e6).toFixed(3)} ms`,
        });
        break;
      default:
        break;
    }
  }
}

export const RECOVERY_STEP_LABELS = [
  'capacitor flush',
  'firmware boot',
  'load checkpoint',
  'scan OOB',
  'replay trims',
  'rebuild free lists',
  'ready',
];
