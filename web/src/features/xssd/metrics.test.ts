import { describe, expect, it } from 'vitest';
import { readDbLogMetrics, readXssdMetrics } from './metrics';
import { readXssdScenario, wantsXssdPanel } from './scenario';
import { byteTicks, formatBytes, formatUs } from './format';

describe('readXssdMetrics', () => {
  it('is null without a fast side', () => {
    expect(readXssdMetrics({ sim: {} })).toBeNull();
    expect(readXssdMetrics(null)).toBeNull();
  });
  it('reads secondaries and the crash report, missing fields as 0', () => {
    const m = readXssdMetrics({
      xssd: {
        ring_bytes: 131072,
        credit_counter: 589824,
        role: 'primary',
        secondaries: [{ link_up: false, active: true, shadow: 393216, mirrored_bytes: 393216, repl_delay_p99_us: 4.7 }],
        crash: { host_acknowledged: 589824, beyond_gap: 128, extra_tail: 64 },
      },
    })!;
    expect(m.ringBytes).toBe(131072);
    expect(m.creditCounter).toBe(589824);
    expect(m.hostTail).toBe(0);
    expect(m.secondaries[0]).toMatchObject({ linkUp: false, active: true, shadow: 393216, replDelayP99Us: 4.7 });
    expect(m.crash).toMatchObject({ hostAcknowledged: 589824, beyondGap: 128, extraTail: 64, counterAtLoss: 0 });
  });
  it('reads no crash report when there was none', () => {
    expect(readXssdMetrics({ xssd: {} })!.crash).toBeNull();
  });
});

describe('readDbLogMetrics', () => {
  it('reads the log writer summary', () => {
    const d = readDbLogMetrics({ db_log: { target: 'cmb', txn_per_s: 159722.17, fsync_errors: 10, fatal_overrun: false } })!;
    expect(d.target).toBe('cmb');
    expect(d.txnPerS).toBeCloseTo(159722.17);
    expect(d.fsyncErrors).toBe(10);
    expect(readDbLogMetrics({})).toBeNull();
  });
});

describe('readXssdScenario', () => {
  it('applies the format defaults', () => {
    const s = readXssdScenario('{"device": {"xssd": {"enabled": true}}}')!;
    expect(s).toMatchObject({ xssd: true, dbLog: false, ringPages: 4096, queueBytes: 32768, secondaries: 0 });
    expect(wantsXssdPanel(s)).toBe(true);
  });
  it('counts secondaries only on a primary', () => {
    const t = (role: string) =>
      JSON.stringify({ device: { xssd: { enabled: true, transport: { role, secondaries: [{}, {}] }, destage: { ring_pages: 64 } } } });
    expect(readXssdScenario(t('primary'))!.secondaries).toBe(2);
    expect(readXssdScenario(t('standalone'))!.secondaries).toBe(0);
    expect(readXssdScenario(t('primary'))!.ringPages).toBe(64);
  });
  it('offers the panel for a database log alone, not for a plain scenario or bad text', () => {
    expect(wantsXssdPanel(readXssdScenario('{"workload": {"db_log": {"enabled": true, "target": "none"}}}'))).toBe(true);
    expect(wantsXssdPanel(readXssdScenario('{"device": {}}'))).toBe(false);
    expect(readXssdScenario('not json')).toBeNull();
    expect(readXssdScenario('[1]')).toBeNull();
  });
});

describe('format', () => {
  it('formats bytes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(16384)).toBe('16 KiB');
    expect(formatBytes(1638400)).toBe('1.56 MiB');
    expect(formatBytes(1048575)).toBe('1 MiB');
    expect(formatBytes(-2048)).toBe('-2 KiB');
  });
  it('formats microseconds', () => {
    expect(formatUs(4.728)).toBe('4.73 µs');
    expect(formatUs(3137.5)).toBe('3,138 µs');
  });
  it('picks power-of-two byte ticks', () => {
    expect(byteTicks(589824)).toEqual([0, 131072, 262144, 393216, 524288]);
    expect(byteTicks(0)).toEqual([0]);
  });
});
