// The playground controller: owns the model worker, the current scenario and
// the run state, and feeds the store the views read. Every call to the worker
// goes through one queue, so requests never overlap and a frame from a model
// that has since been reloaded is recognised (by its generation) and dropped.
// The UI thread never waits on the worker: it sends a request, keeps drawing,
// and applies the answer when it arrives.
import { startModelWorker, type ModelClient } from '../bridge/client';
import type {
  BlockSnapshot,
  DeviceInfo,
  EnumNames,
  Frame,
  InstrCommand,
  LatencyBuckets,
  LoadResult,
  RequestExplanation,
  RequestRows,
  SeriesPoint,
  TimelineEvent,
} from '../bridge/protocol';
import { appendCapped, appendTimeline, SERIES_CAP, TIMELINE_CAP } from './capped';
import {
  clampSpeedIndex,
  DEFAULT_SPEED_INDEX,
  MAX_REQUEST_START_NS,
  nextMaxRequest,
  simStepNs,
  SPEEDS,
  suggestSpeedIndex,
} from './speeds';
import { Store } from './store';

/** Wall-clock budget of one advance in the worker (ms): half a 60 Hz frame. */
export const ADVANCE_BUDGET_MS = 8;
/** Budget of one slice of "run to end" (ms); the UI redraws between slices. */
export const RUN_TO_END_SLICE_MS = 50;
/** Block map and latency CDF are refreshed at most this often while running (ms). */
export const AUX_REFRESH_MS = 250;

export type ScenarioSource =
  | { kind: 'library'; path: string }
  | { kind: 'link' }
  | { kind: 'file'; name: string }
  | { kind: 'editor' };

export interface LoadedScenario {
  /** The JSON text the model runs (what Reset reloads and Share carries). */
  text: string;
  title: string;
  description: string;
  source: ScenarioSource;
}

export interface PlaygroundState {
  /** starting: the worker and wasm are loading; failed: they could not. */
  phase: 'starting' | 'ready' | 'failed';
  fatal: string | null;
  names: EnumNames | null;
  device: DeviceInfo | null;
  scenario: LoadedScenario | null;
  loading: boolean;
  playing: boolean;
  runningToEnd: boolean;
  speedIndex: number;
  /** A short message about the last action (fault injected, file saved). */
  notice: string | null;
  /** An error the user must see and dismiss (a bad share link). */
  banner: string | null;

  frame: Frame | null;
  series: SeriesPoint[];
  timeline: TimelineEvent[];
  blocks: BlockSnapshot | null;
  latency: LatencyBuckets | null;
  /** Block picked on the block map (the target of "fail a block"). */
  selectedBlock: number | null;
}

const initialState: PlaygroundState = {
  phase: 'starting',
  fatal: null,
  names: null,
  device: null,
  scenario: null,
  loading: false,
  playing: false,
  runningToEnd: false,
  speedIndex: DEFAULT_SPEED_INDEX,
  notice: null,
  banner: null,
  frame: null,
  series: [],
  timeline: [],
  blocks: null,
  latency: null,
  selectedBlock: null,
};

export interface LoadOptions {
  autoplay?: boolean;
  /** Pick a speed from the run length (library and link loads), else keep the current one. */
  suggestSpeed?: boolean;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Playground {
  readonly store = new Store<PlaygroundState>(initialState);
  private client: ModelClient | null = null;
  private worker: Worker | null = null;
  private generation = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private lastSentAt: number | null = null;
  private maxRequestNs = MAX_REQUEST_START_NS;
  private lastAuxAt = -Infinity;
  private auxStale = true;
  private noticeTimer: ReturnType<typeof setTimeout> | null = null;

  get state(): PlaygroundState {
    return this.store.get();
  }

  /** Starts the worker and the wasm model. Resolves when the model is ready. */
  async start(): Promise<boolean> {
    try {
      const { client, worker, wasmBase } = startModelWorker();
      this.client = client;
      this.worker = worker;
      worker.addEventListener('error', (e) => {
        this.store.set({ phase: 'failed', fatal: `the model worker failed: ${e.message || 'unknown error'}`, playing: false });
      });
      const names = await client.init(wasmBase);
      this.store.set({ phase: 'ready', names });
      return true;
    } catch (e) {
      this.store.set({ phase: 'failed', fatal: `the model could not start: ${describe(e)}` });
      return false;
    }
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    this.client = null;
  }

  /** Runs fn after every earlier worker request has finished. */
  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.queue.then(fn);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => {
      this.pending--;
    });
  }

  private need(): ModelClient {
    if (!this.client) throw new Error('the model is not running');
    return this.client;
  }

  /**
   * Loads scenario text into the model. On success the views reset to the new
   * device; on failure the model has no scenario and the caller decides what
   * to load instead (LoadResult.error names the problem).
   */
  load(scenario: LoadedScenario, options: LoadOptions = {}): Promise<LoadResult> {
    const gen = ++this.generation;
    this.store.set({ loading: true, playing: false, runningToEnd: false });
    return this.enqueue(async () => {
      const client = this.need();
      let result: LoadResult;
      try {
        // Check first: a scenario the model refuses leaves the running one alone.
        const problem = await client.validate(scenario.text);
        if (problem) {
          if (gen === this.generation) this.store.set({ loading: false });
          return { ok: false, error: problem, device: null };
        }
        result = await client.load(scenario.text);
      } catch (e) {
        result = { ok: false, error: describe(e), device: null };
      }
      if (gen !== this.generation) return result;
      if (!result.ok || !result.device) {
        this.store.set({ loading: false, device: null, frame: null });
        return result;
      }
      const frame = await client.frame();
      const [blocks, latency] = await Promise.all([client.blocks(), client.latency()]);
      if (gen !== this.generation) return result;
      const speedIndex = options.suggestSpeed ? suggestSpeedIndex(frame.maxTimeNs) : this.state.speedIndex;
      this.maxRequestNs = MAX_REQUEST_START_NS;
      this.lastSentAt = null;
      this.lastAuxAt = performance.now();
      this.auxStale = false;
      this.store.set({
        loading: false,
        scenario,
        device: result.device,
        frame,
        series: frame.series,
        timeline: frame.timeline,
        blocks,
        latency,
        selectedBlock: null,
        speedIndex,
        playing: !!options.autoplay && !frame.finished,
      });
      return result;
    });
  }

  /** Reloads the current scenario (Reset). Keeps playing if it was. */
  reset(): Promise<LoadResult> | null {
    const s = this.state.scenario;
    if (!s) return null;
    return this.load(s, { autoplay: this.state.playing });
  }

  private canRun(): boolean {
    const s = this.state;
    return s.phase === 'ready' && !s.loading && s.device !== null && s.frame !== null;
  }

  /** Applies a frame from generation gen (dropped if the model was reloaded since). */
  private applyFrame(frame: Frame, gen: number): void {
    if (gen !== this.generation) return;
    const s = this.state;
    this.auxStale = true;
    this.store.set({
      frame,
      series: appendCapped(s.series, frame.series, SERIES_CAP),
      timeline: appendTimeline(s.timeline, frame.timeline, TIMELINE_CAP),
      playing: s.playing && !frame.finished,
    });
  }

  private async refreshAux(gen: number): Promise<void> {
    const client = this.need();
    const [blocks, latency] = await Promise.all([client.blocks(), client.latency()]);
    if (gen !== this.generation) return;
    this.lastAuxAt = performance.now();
    this.auxStale = false;
    this.store.set({ blocks, latency });
  }

  /**
   * One animation frame of the run loop. If playing and no request is in
   * flight, asks the worker to advance by speed × wall time since the last
   * request (Max: as much as the budget allows). Refreshes the block map and
   * the latency CDF at most every AUX_REFRESH_MS.
   */
  tick(now: number): void {
    const s = this.state;
    if (!this.canRun() || this.pending > 0) return;
    if (!s.playing || s.runningToEnd) {
      this.lastSentAt = null;
      if (this.auxStale && now - this.lastAuxAt >= AUX_REFRESH_MS) {
        const gen = this.generation;
        void this.enqueue(() => this.refreshAux(gen)).catch((e: unknown) => this.fail(e));
      }
      return;
    }
    const speed = SPEEDS[s.speedIndex]!;
    const wall = this.lastSentAt === null ? 1 / 60 : (now - this.lastSentAt) / 1000;
    const isMax = !Number.isFinite(speed.nsPerSecond);
    const simNs = isMax ? this.maxRequestNs : simStepNs(speed.nsPerSecond, wall);
    if (simNs <= 0) return;
    this.lastSentAt = now;
    const gen = this.generation;
    const before = s.frame?.nowNs ?? 0;
    const auxDue = now - this.lastAuxAt >= AUX_REFRESH_MS;
    void this.enqueue(async () => {
      const client = this.need();
      const frame = await client.advance(simNs, ADVANCE_BUDGET_MS);
      if (isMax && gen === this.generation) this.maxRequestNs = nextMaxRequest(simNs, frame.nowNs - before, frame.finished);
      this.applyFrame(frame, gen);
      if (auxDue || frame.finished) await this.refreshAux(gen);
    }).catch((e: unknown) => this.fail(e));
  }

  private fail(e: unknown): void {
    this.store.set({ playing: false, runningToEnd: false, notice: `The model stopped: ${describe(e)}` });
  }

  play(): void {
    if (!this.canRun() || this.state.frame?.finished) return;
    this.store.set({ playing: true, runningToEnd: false });
  }

  pause(): void {
    this.store.set({ playing: false, runningToEnd: false });
  }

  togglePlay(): void {
    if (this.state.playing || this.state.runningToEnd) this.pause();
    else this.play();
  }

  setSpeed(index: number): void {
    this.store.set({ speedIndex: clampSpeedIndex(index) });
    this.maxRequestNs = MAX_REQUEST_START_NS;
  }

  faster(): void {
    this.setSpeed(this.state.speedIndex + 1);
  }

  slower(): void {
    this.setSpeed(this.state.speedIndex - 1);
  }

  /** Processes exactly one event (pauses first). */
  step(): Promise<void> | null {
    if (!this.canRun()) return null;
    this.pause();
    const gen = this.generation;
    return this.enqueue(async () => {
      const frame = await this.need().step();
      this.applyFrame(frame, gen);
      await this.refreshAux(gen);
    }).catch((e: unknown) => this.fail(e));
  }

  /** Runs to the end of the workload in slices, drawing between them. Pause stops it. */
  async runToEnd(): Promise<void> {
    if (!this.canRun() || this.state.runningToEnd || this.state.frame?.finished) return;
    const gen = this.generation;
    this.store.set({ runningToEnd: true, playing: false });
    try {
      for (;;) {
        const frame = await this.enqueue(() => this.need().runToEnd(RUN_TO_END_SLICE_MS));
        this.applyFrame(frame, gen);
        if (gen !== this.generation || frame.finished || !this.state.runningToEnd) break;
        if (performance.now() - this.lastAuxAt >= AUX_REFRESH_MS) await this.enqueue(() => this.refreshAux(gen));
      }
      if (gen === this.generation) await this.enqueue(() => this.refreshAux(gen));
    } catch (e) {
      this.fail(e);
    } finally {
      if (gen === this.generation) this.store.set({ runningToEnd: false });
    }
  }

  /** Cuts the power now; the model models the reboot and recovery that follow. */
  powerFail(): Promise<void> | null {
    if (!this.canRun()) return null;
    const gen = this.generation;
    return this.enqueue(async () => {
      const frame = await this.need().powerFail();
      this.applyFrame(frame, gen);
      await this.refreshAux(gen);
      this.notify('Power failure injected: the device reboots and rebuilds its mapping (see the event timeline).');
    }).catch((e: unknown) => this.fail(e));
  }

  /** Marks a block as failed (the FTL retires it); returns the model's message. */
  failBlock(block: number): Promise<string> | null {
    if (!this.canRun()) return null;
    const gen = this.generation;
    return this.enqueue(async () => {
      const client = this.need();
      const message = await client.failBlock(block);
      const frame = await client.frame();
      this.applyFrame(frame, gen);
      await this.refreshAux(gen);
      this.notify(
        message
          ? `Could not fail block ${block}: ${message}.`
          : `Block ${block} failed: the FTL retires it (its valid pages are moved out first).`,
      );
      return message;
    }).catch((e: unknown) => {
      this.fail(e);
      return describe(e);
    });
  }

  selectBlock(block: number | null): void {
    this.store.set({ selectedBlock: block });
  }

  /** The raw observation records seen so far (32 bytes each). */
  exportRecords(): Promise<ArrayBuffer> {
    return this.enqueue(() => this.need().exportRecords());
  }

  /** Every complete request of the records seen so far (REQUEST_ROW layout). */
  requestRows(): Promise<RequestRows> {
    return this.enqueue(() => this.need().requestRows());
  }

  /** One request explained from the records seen so far. */
  explain(id: number): Promise<RequestExplanation> {
    return this.enqueue(() => this.need().explain(id));
  }

  /** The analysis over the records seen so far (slowest topN explained). */
  analyze(topN: number): Promise<unknown> {
    return this.enqueue(() => this.need().analyze(topN));
  }

  /** Runs an instrumentation vendor command; "" or why not. Applies the frame it returns. */
  instrumentationCommand(command: InstrCommand, value = 0): Promise<string> {
    const gen = this.generation;
    return this.enqueue(async () => {
      const { error, frame } = await this.need().instrumentationCommand(command, value);
      if (frame) this.applyFrame(frame, gen);
      return error;
    });
  }

  /** Records delivered by the last "transfer" command (32 bytes each). */
  transferredRecords(): Promise<ArrayBuffer> {
    return this.enqueue(() => this.need().transferredRecords());
  }

  notify(message: string, ms = 6000): void {
    if (this.noticeTimer) clearTimeout(this.noticeTimer);
    this.store.set({ notice: message });
    this.noticeTimer = setTimeout(() => this.store.set({ notice: null }), ms);
  }

  clearNotice(): void {
    if (this.noticeTimer) clearTimeout(this.noticeTimer);
    this.noticeTimer = null;
    this.store.set({ notice: null });
  }

  showBanner(message: string | null): void {
    this.store.set({ banner: message });
  }
}
