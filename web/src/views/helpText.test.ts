import { describe, expect, it } from 'vitest';
import { HelpText } from './helpText';
import { fakeBlocks, fakeDevice, fakeFrame, fakeTimeline } from './fixtures';

describe('HelpText', () => {
  it('explains every view', () => {
    for (const key of ['floorPlan', 'blockMap', 'throughput', 'latency', 'latencyCdf', 'timeline'] as const) {
      expect(HelpText[key].length, key).toBeGreaterThan(200);
    }
  });

  it('has the glossary terms the metrics panel uses', () => {
    for (const term of ['IOPS', 'MB/s', 'WAF', 'RMW', 'GC', 'foreground GC', 'background GC', 'watermark', 'copyback', 'OOB', 'checkpoint', 'TRIM', 'wear leveling', 'p99'] as const) {
      expect(HelpText.glossary[term]?.length ?? 0, term).toBeGreaterThan(40);
    }
  });

  it('defines WAF and RMW the way the model computes them', () => {
    expect(HelpText.glossary.WAF).toMatch(/per byte the host wrote/);
    expect(HelpText.glossary.WAF).toMatch(/garbage collection/);
    expect(HelpText.glossary.RMW).toMatch(/4 KiB into an 8 KiB page/);
  });
});

describe('fixtures', () => {
  it('make frames shaped like the device', () => {
    const d = fakeDevice({ channels: 3, chipsPerChannel: 2, diesPerChip: 2 });
    expect(d.ways_per_channel).toBe(4);
    expect(d.dies).toBe(12);
    const f = fakeFrame(d, 1);
    expect(f.dieState).toHaveLength(12);
    expect(f.dieOps).toHaveLength(48);
    expect(f.channelBusy).toHaveLength(3);
    expect(f.flowOutstanding).toHaveLength(d.flows.length);
    expect(Math.max(...f.dieState)).toBeLessThan(6);
  });

  it('make block snapshots within the geometry', () => {
    const d = fakeDevice();
    const s = fakeBlocks(d);
    expect(s.words).toHaveLength(d.blocks * 4);
    for (let b = 0; b < d.blocks; b++) {
      expect(s.words[b * 4]!).toBeLessThanOrEqual(d.pages_per_block);
      expect(s.words[b * 4 + 2]!).toBeLessThan(6);
    }
  });

  it('make a timeline with a recovery after the power failure', () => {
    const ev = fakeTimeline(fakeDevice(), 50);
    const pf = ev.find((e) => e.kind === 'power_fail')!;
    const steps = ev.filter((e) => e.kind === 'recovery_step');
    expect(steps).toHaveLength(7);
    for (const s of steps) expect(s.startNs).toBeGreaterThanOrEqual(pf.startNs);
  });
});
