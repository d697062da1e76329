// The shaping functions over the records of real runs of the wasm model, in
// Node. Needs the wasm build (scripts/build-wasm.sh, run by `npm test` first).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreateSsdpModule, SsdpModule } from '../../bridge/ssdp-module';
import { ModelSession } from '../../bridge/session';
import { crashEpisodes, CRASH_STEPS } from './crash';
import { destageThroughput, durableTimes, slotGrid } from './destage';
import { readDbLogMetrics, readXssdMetrics } from './metrics';
import { commitBins } from './dblog';
import { creditPoints } from './ring';
import { readXssdScenario } from './scenario';
import { decodeXssd, type XssdStream } from './stream';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const wasmDir = join(repo, 'web/public/wasm');
let module: SsdpModule;

beforeAll(async () => {
  const { default: create } = (await import(pathToFileURL(join(wasmDir, 'ssdp.mjs')).href)) as { default: CreateSsdpModule };
  module = await create({ wasmBinary: readFileSync(join(wasmDir, 'ssdp.wasm')) });
});

function run(name: string): { text: string; metrics: unknown; stream: XssdStream; endNs: number } {
  const text = readFileSync(join(repo, 'scenarios/xssd', name), 'utf8');
  let now = 0;
  const session = new ModelSession(module, () => (now += 0.001));
  expect(session.load(text).error).toBe('');
  let frame = session.runToEnd(1e9);
  while (!frame.finished) frame = session.runToEnd(1e9);
  return { text, metrics: frame.metrics, stream: decodeXssd(new Uint8Array(session.exportRecords())), endNs: frame.nowNs };
}

describe('X-SSD views over real runs', () => {
  it('crash: one complete episode whose steps agree with the crash report', () => {
    const { metrics, stream } = run('crash.json');
    const x = readXssdMetrics(metrics)!;
    expect(x.crash).not.toBeNull();
    const eps = crashEpisodes(stream.crash);
    expect(eps).toHaveLength(1);
    const e = eps[0]!;
    expect(e.complete).toBe(true);
    expect(e.outOfOrder).toBe(false);
    expect(e.steps.map((s) => s!.step)).toEqual(CRASH_STEPS.map((_, i) => i));
    expect(e.atNs).toBe(x.crash!.atNs);
    expect(e.steps[2]!.bytes).toBe(x.crash!.beyondGap);
    expect(e.steps[3]!.t).toBeGreaterThan(e.atNs);
    expect(x.crash!.lostAcknowledged).toBe(0);
  });

  it('crash: credits stay within the queue and the slot grid counts every destaged page', () => {
    const { text, metrics, stream, endNs } = run('crash.json');
    const cfg = readXssdScenario(text)!;
    const x = readXssdMetrics(metrics)!;
    expect(cfg.queueBytes).toBe(x.queueBytes);
    const pts = creditPoints(stream.credits, cfg.queueBytes);
    expect(pts.length).toBeGreaterThan(0);
    for (const p of pts) {
      expect(p.credits).toBeGreaterThanOrEqual(0);
      expect(p.credits).toBeLessThanOrEqual(cfg.queueBytes);
    }
    const grid = slotGrid(stream.destage, stream.destageDone, cfg.ringPages);
    expect(grid.cells.reduce((n, c) => n + c.writes, 0)).toBe(grid.pages);
    // Every page has its destage record, those written on capacitor power included.
    expect(grid.pages).toBe(x.destagePages);
    const bins = destageThroughput(stream.destage, stream.destageDone, 1_000_000, endNs);
    const payload = bins.reduce((n, b) => n + b.payload, 0);
    expect(payload).toBeGreaterThan(0);
    expect(payload).toBeLessThanOrEqual(x.destagePayloadBytes);
    // Every page issued before the power loss ended on flash (in flight, or on capacitor power).
    expect(grid.cells.filter((c) => c.writes > 0).every((c) => c.durable)).toBe(true);
    const db = readDbLogMetrics(metrics)!;
    const commits = commitBins(stream.commits, 1_000_000, endNs);
    expect(commits.reduce((n, b) => n + b.groups, 0)).toBe(db.groups);
    expect(commits.reduce((n, b) => n + b.txns, 0)).toBe(db.transactions);
  });

  it('replication: shadow counters, delays and a secondary ring', () => {
    const { text, metrics, stream } = run('replication.json');
    const x = readXssdMetrics(metrics)!;
    expect(x.role).toBe('primary');
    expect(x.secondaries).toHaveLength(1);
    expect(stream.shadow.length).toBeGreaterThan(0);
    expect(stream.shadow.every((s) => s.shadow <= s.counter)).toBe(true);
    expect(stream.replDelay).toHaveLength(x.secondaries[0]!.replDelayCount);
    const maxUs = Math.max(...stream.replDelay.map((d) => d.delayNs / 1000));
    expect(maxUs).toBeCloseTo(x.secondaries[0]!.replDelayMaxUs, 1);
    expect(stream.ring.some((r) => r.unit === 1)).toBe(true);
    const grid = slotGrid(stream.destage, stream.destageDone, readXssdScenario(text)!.ringPages);
    expect(grid.pages).toBe(x.destagePages);
    // The durable position the records reach is the one the metrics report.
    expect(stream.destageDone.at(-1)!.pos).toBe(x.destageDurable);
    const durable = durableTimes(stream.destage, stream.destageDone).filter((t) => t >= 0).length;
    expect(durable).toBe(stream.destage.filter((d) => d.pos + d.payload <= x.destageDurable).length);
  });
});
