// The worker-side session over the real WebAssembly model, in Node. Needs the
// wasm build (scripts/build-wasm.sh, run by `npm test` before this stage).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

import type { CreateSsdpModule, SsdpModule } from './ssdp-module';
import type { Metrics } from './protocol';
import { REQUEST_ROW, REQUEST_STAGES } from './protocol';
import { ModelSession } from './session';
import { RECORD_BYTES, RecordKind, decodeRecords } from './records';
import { metricsToCsv, metricsToJson } from '../exports/metricsFormat';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const wasmDir = join(repo, 'web/public/wasm');
const cli = join(repo, 'build/release/ssdplay');
const scenario = (name: string) => readFileSync(join(repo, 'scenarios/basics', name), 'utf8');

let module: SsdpModule;
let fakeNow = 0;
const clock = () => fakeNow;

beforeAll(async () => {
  const { default: create } = (await import(pathToFileURL(join(wasmDir, 'ssdp.mjs')).href)) as {
    default: CreateSsdpModule;
  };
  // Node cannot fetch a file URL: hand the module its bytes.
  module = await create({ wasmBinary: readFileSync(join(wasmDir, 'ssdp.wasm')) });
});

function runAll(json: string): { session: ModelSession; metrics: Metrics } {
  const session = new ModelSession(module, () => (fakeNow += 0.001));
  const loaded = session.load(json);
  expect(loaded.error).toBe('');
  let frame = session.runToEnd(1e9);
  while (!frame.finished) frame = session.runToEnd(1e9);
  return { session, metrics: frame.metrics };
}

describe('ModelSession over the wasm model', () => {
  it('rejects a bad scenario with the JSON path, the value and the range', () => {
    const session = new ModelSession(module, clock);
    const result = session.load('{"device": {"geometry": {"channels": 0}}}');
    expect(result.ok).toBe(false);
    expect(result.error).toContain('device.geometry.channels: 0 is out of range; allowed 1..64');
  });

  it('validates without disturbing the loaded model', () => {
    const session = new ModelSession(module, clock);
    session.load(scenario('default.json'));
    const before = session.advance(2e6, 1e9).nowNs;
    expect(session.validate('{"seed": -1}')).toContain('seed');
    expect(session.validate(scenario('mixed-flows.json'))).toBe('');
    expect(session.frame().nowNs).toBe(before);
  });

  it('refuses a trace given as a file path, which a browser cannot read', () => {
    const session = new ModelSession(module, clock);
    const result = session.load('{"workload": {"trace": {"path": "t.trace"}}}');
    expect(result.ok).toBe(false);
    expect(result.error).toContain('workload.trace');
  });

  it('gives frames shaped by the device, with series and die activity', () => {
    const session = new ModelSession(module, clock);
    const loaded = session.load(scenario('default.json'));
    expect(loaded.ok).toBe(true);
    const device = loaded.device!;
    const frame = session.advance(5e6, 1e9);
    expect(frame.nowNs).toBeGreaterThanOrEqual(5e6);
    expect(frame.dieState.length).toBe(device.dies);
    expect(frame.channelBusy.length).toBe(device.channels);
    expect(frame.series.length).toBeGreaterThan(0);
    const ops = frame.dieOps.reduce((a, b) => a + b, 0);
    expect(ops).toBeGreaterThan(0);
    expect(frame.metrics.host.requests).toBeGreaterThan(0);
    // A second frame starts empty: series and ops are deltas.
    const next = session.frame();
    expect(next.series.length).toBe(0);
    expect(next.dieOps.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('records a power failure and every recovery step on the timeline', () => {
    const session = new ModelSession(module, clock);
    session.load(scenario('default.json'));
    session.advance(3e6, 1e9);
    const failed = session.powerFail();
    const steps = failed.timeline.filter((e) => e.kind === 'recovery_step').map((e) => e.label);
    expect(failed.timeline.some((e) => e.kind === 'power_fail')).toBe(true);
    expect(steps).toEqual([
      'capacitor flush',
      'firmware boot',
      'load checkpoint',
      'scan OOB',
      'replay trims',
      'rebuild free lists',
      'ready',
    ]);
    const after = session.runToEnd(1e9);
    expect(after.metrics.power.failures).toBe(1);
  });

  it('exports the raw record stream it saw', () => {
    const { session } = runAll(scenario('trace-replay.json'));
    const bytes = new Uint8Array(session.exportRecords());
    expect(bytes.length % RECORD_BYTES).toBe(0);
    let completes = 0;
    decodeRecords(bytes, (r) => {
      if (r.kind === RecordKind.RequestComplete) completes++;
    });
    expect(completes).toBe(40);
  });

  it('latency buckets add up to the completed requests', () => {
    const { session, metrics } = runAll(scenario('default.json'));
    const { read, write } = session.latency();
    const total = (b: Float64Array) => b.reduce((s, v, i) => (i % 2 ? s + v : s), 0);
    expect(total(read)).toBe(metrics.host.reads);
    expect(total(write)).toBe(metrics.host.writes);
  });
});

describe('record analysis and the instrumented device through the bridge', () => {
  it('explains requests and lists every complete one', () => {
    const { session, metrics } = runAll(scenario('default.json'));
    const { rows } = session.requestRows();
    expect(rows.length % REQUEST_ROW.width).toBe(0);
    expect(rows.length / REQUEST_ROW.width).toBe(metrics.host.requests);
    // Stages add up to each request's latency.
    for (let i = 0; i < rows.length; i += REQUEST_ROW.width) {
      let sum = 0;
      for (let s = 0; s < REQUEST_STAGES.length; s++) sum += rows[i + REQUEST_ROW.stages + s]!;
      expect(sum).toBe(rows[i + REQUEST_ROW.latencyNs]);
    }
    const slowest = rows.reduce((best, _, i) =>
      i % REQUEST_ROW.width === 0 && rows[i + REQUEST_ROW.latencyNs]! > rows[best + REQUEST_ROW.latencyNs]! ? i : best, 0);
    const why = session.explain(rows[slowest + REQUEST_ROW.id]!);
    expect(why.found).toBe(true);
    expect(why.sentence).toContain('step to blame');
    expect(session.explain(99_999_999).found).toBe(false);
  });

  it('runs instrumentation vendor commands', () => {
    const session = new ModelSession(module, clock);
    session.load(readFileSync(join(repo, 'scenarios/obs/log-1-ckpt-1.json'), 'utf8'));
    session.advance(20e6, 1e9);
    const transfer = session.instrumentationCommand('transfer', 0);
    expect(transfer.error).toBe('');
    expect(transfer.frame!.metrics.instrumentation!.transfers).toBe(1);
    // The transfer carries what the cache held when it ran: everything but
    // the command's own record.
    const held = transfer.frame!.metrics.instrumentation!.held_records;
    expect(new Uint8Array(session.transferredRecords()).length).toBe((held - 1) * RECORD_BYTES);
    expect(session.instrumentationCommand('freeze', 0).frame!.metrics.instrumentation!.frozen).toBe(true);
    const plain = new ModelSession(module, clock);
    plain.load(scenario('default.json'));
    expect(plain.instrumentationCommand('transfer', 0).error).toContain('instrumentation');
  });
});

describe('WebAssembly and native builds agree', () => {
  const haveCli = existsSync(cli);
  const names = readdirSync(join(repo, 'scenarios/basics')).filter((n: string) => n.endsWith('.json'));
  it.runIf(haveCli || process.env.CI)('every starter scenario gives identical metrics', () => {
    expect(haveCli, `${cli} is built by the core stage of npm test`).toBe(true);
    for (const name of names) {
      const native = JSON.parse(
        execFileSync(cli, ['run', join(repo, 'scenarios/basics', name), '--format', 'json'], { encoding: 'utf8' }),
      ) as Metrics;
      const { metrics: wasm } = runAll(scenario(name));
      native.sim.wall_s = 0;
      wasm.sim.wall_s = 0;
      expect(wasm, name).toEqual(native);
    }
  });
  it.runIf(haveCli || process.env.CI)('every X-SSD scenario gives identical metrics, crash and replication included', () => {
    expect(haveCli, `${cli} is built by the core stage of npm test`).toBe(true);
    const xssd = readdirSync(join(repo, 'scenarios/xssd')).filter((n: string) => n.endsWith('.json'));
    expect(xssd.length).toBeGreaterThanOrEqual(11);
    for (const name of xssd) {
      const file = join(repo, 'scenarios/xssd', name);
      const native = JSON.parse(execFileSync(cli, ['run', file, '--format', 'json'], { encoding: 'utf8' })) as Metrics;
      const { metrics: wasm } = runAll(readFileSync(file, 'utf8'));
      native.sim.wall_s = 0;
      wasm.sim.wall_s = 0;
      // How many records a full ring overwrote depends on how often its reader
      // drains it (the page does every frame, the CLI never), not on the model.
      native.records.lost = wasm.records.lost = 0;
      expect(wasm, name).toEqual(native);
    }
  });
  it.runIf(haveCli || process.env.CI)('the page exports X-SSD metrics byte for byte as the CLI prints them', () => {
    expect(haveCli, `${cli} is built by the core stage of npm test`).toBe(true);
    const file = join(repo, 'scenarios/xssd/replication.json');
    const { metrics } = runAll(readFileSync(file, 'utf8'));
    metrics.sim.wall_s = 0;
    for (const format of ['csv', 'json'] as const) {
      const native = execFileSync(cli, ['run', file, '--format', format], { encoding: 'utf8' })
        .replace(/wall_s,[^\n]*/, 'wall_s,0.0')
        .replace(/"wall_s": [^,\n]*/, '"wall_s": 0.0');
      expect(format === 'csv' ? metricsToCsv(metrics) : metricsToJson(metrics), format).toBe(native);
    }
  });
});
