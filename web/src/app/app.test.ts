import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Metrics, TimelineEvent } from '../bridge/protocol';
import { HELP, METRICS, metricAt } from './metricsSpec';
import { appendCapped, appendTimeline } from './capped';
import { formatBytes, formatInt, formatMicros, formatNumber, formatPercent, formatSimTime } from './format';
import { SHORTCUTS, actionForKey, isTypingTarget } from './shortcuts';
import {
  DEFAULT_SPEED_INDEX,
  MAX_REQUEST_MIN_NS,
  SPEEDS,
  clampSpeedIndex,
  nextMaxRequest,
  simStepNs,
  suggestSpeedIndex,
} from './speeds';
import { nextThemeChoice, parseThemeChoice, resolveTheme } from './theme';

describe('speeds', () => {
  it('run from 1 µs/s to Max in decades', () => {
    expect(SPEEDS.map((s) => s.label)).toEqual(['1 µs/s', '10 µs/s', '100 µs/s', '1 ms/s', '10 ms/s', '100 ms/s', '1 s/s', 'Max']);
    expect(SPEEDS[DEFAULT_SPEED_INDEX]!.nsPerSecond).toBe(1e6);
    expect(clampSpeedIndex(-3)).toBe(0);
    expect(clampSpeedIndex(99)).toBe(SPEEDS.length - 1);
  });

  it('suggest a speed that makes a run last about 20 s', () => {
    expect(suggestSpeedIndex(25e6)).toBe(3); // default scenario: 1 ms/s
    expect(suggestSpeedIndex(1e9)).toBe(4); // 1 s of simulated time: 10 ms/s
    expect(suggestSpeedIndex(100)).toBe(0);
    expect(suggestSpeedIndex(1e15)).toBe(6); // never Max
    expect(suggestSpeedIndex(0)).toBe(DEFAULT_SPEED_INDEX);
  });

  it('turn wall time into simulated time, capping long gaps', () => {
    expect(simStepNs(1e6, 1 / 60)).toBe(16667);
    expect(simStepNs(1e6, 10)).toBe(250_000);
    expect(simStepNs(1e6, -1)).toBe(0);
  });

  it('adapt the Max request to what the worker manages', () => {
    expect(nextMaxRequest(100_000, 100_000, false)).toBe(200_000);
    expect(nextMaxRequest(1_000_000, 200_000, false)).toBe(500_000);
    expect(nextMaxRequest(1_000_000, 900_000, false)).toBe(1_125_000);
    expect(nextMaxRequest(20_000, 0, false)).toBe(MAX_REQUEST_MIN_NS);
    expect(nextMaxRequest(500, 0, true)).toBe(500);
  });
});

describe('appendCapped', () => {
  it('keeps the newest items up to the cap', () => {
    expect(appendCapped([1, 2, 3], [4, 5], 4)).toEqual([2, 3, 4, 5]);
    expect(appendCapped([1, 2], [3, 4, 5, 6, 7], 3)).toEqual([5, 6, 7]);
    expect(appendCapped([1], [2], 5)).toEqual([1, 2]);
  });

  it('returns the same array when nothing is added', () => {
    const list = [1, 2];
    expect(appendCapped(list, [], 5)).toBe(list);
  });
});

describe('appendTimeline', () => {
  const ev = (kind: TimelineEvent['kind'], t: number): TimelineEvent => ({
    kind,
    startNs: t,
    endNs: t,
    unit: -1,
    label: `${kind}@${t}`,
    detail: '',
  });

  it('drops the oldest routine events before recovery steps', () => {
    const list = [ev('power_fail', 0), ev('recovery_step', 1), ev('erase', 2), ev('gc', 3)];
    const out = appendTimeline(list, [ev('erase', 4), ev('erase', 5)], 4);
    expect(out.map((e) => e.label)).toEqual(['power_fail@0', 'recovery_step@1', 'erase@4', 'erase@5']);
  });

  it('drops key events only when they alone exceed the cap', () => {
    const list = [ev('recovery_step', 0), ev('recovery_step', 1), ev('gc', 2)];
    const out = appendTimeline(list, [ev('recovery_step', 3)], 2);
    expect(out.map((e) => e.label)).toEqual(['recovery_step@1', 'recovery_step@3']);
  });

  it('keeps everything under the cap', () => {
    const list = [ev('gc', 0)];
    expect(appendTimeline(list, [], 1)).toBe(list);
    expect(appendTimeline(list, [ev('gc', 1)], 5)).toHaveLength(2);
  });
});

describe('format', () => {
  it('formats simulated time in the best unit', () => {
    expect(formatSimTime(0)).toBe('0 ns');
    expect(formatSimTime(999)).toBe('999 ns');
    expect(formatSimTime(12_345)).toBe('12.345 µs');
    expect(formatSimTime(20_762_238)).toBe('20.762 ms');
    expect(formatSimTime(1.5e9)).toBe('1.500 s');
  });

  it('formats numbers, counts, latencies, percentages and bytes', () => {
    expect(formatNumber(0.4582089552238806)).toBe('0.458');
    expect(formatNumber(90982.48)).toBe('90,982');
    expect(formatNumber(372.66)).toBe('373');
    expect(formatInt(1234567)).toBe('1,234,567');
    expect(formatMicros(9.695)).toBe('9.70');
    expect(formatMicros(178.687)).toBe('178.7');
    expect(formatMicros(1188.96)).toBe('1,189');
    expect(formatPercent(0.2027)).toBe('20.3%');
    expect(formatPercent(0.0315)).toBe('3.15%');
    expect(formatBytes(5488640)).toBe('5.2 MiB');
    expect(formatBytes(512)).toBe('512 B');
  });
});

describe('shortcuts', () => {
  it('map keys to actions', () => {
    expect(actionForKey({ key: ' ' })).toBe('togglePlay');
    expect(actionForKey({ key: 'ArrowRight' })).toBe('step');
    expect(actionForKey({ key: 'S' })).toBe('step');
    expect(actionForKey({ key: 'e' })).toBe('runToEnd');
    expect(actionForKey({ key: 'r' })).toBe('reset');
    expect(actionForKey({ key: 'r', ctrlKey: true })).toBeNull(); // Ctrl+R reloads the page
    expect(actionForKey({ key: '+' })).toBe('faster');
    expect(actionForKey({ key: '-' })).toBe('slower');
    expect(actionForKey({ key: 'p' })).toBe('powerFail');
    expect(actionForKey({ key: 'b' })).toBe('failBlock');
    expect(actionForKey({ key: '?' })).toBe('help');
    expect(actionForKey({ key: 'x' })).toBeNull();
  });

  it('list every action in the help', () => {
    const listed = new Set(SHORTCUTS.map((s) => s.action));
    for (const key of [' ', 's', 'e', 'r', '+', '-', 'p', 'b', 'l', '?', 'Escape']) {
      expect(listed.has(actionForKey({ key })!)).toBe(true);
    }
  });

  it('leave keys to text fields', () => {
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'number' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('theme', () => {
  it('parses, resolves and cycles', () => {
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('purple')).toBe('system');
    expect(parseThemeChoice(null)).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(nextThemeChoice('light')).toBe('dark');
    expect(nextThemeChoice('dark')).toBe('system');
    expect(nextThemeChoice('system')).toBe('light');
  });
});

describe('metrics panel spec', () => {
  const cli = JSON.parse(
    readFileSync(new URL('../exports/fixtures/cli-default.json', import.meta.url), 'utf8'),
  ) as Metrics;

  it('names only metrics the model reports, each with a unit-aware format and a definition', () => {
    for (const m of METRICS) {
      expect(Number.isNaN(metricAt(cli, m.path)), m.path).toBe(false);
      expect(HELP[m.term] ?? '', `definition for ${m.term}`).not.toBe('');
      expect(m.format(metricAt(cli, m.path))).not.toBe('');
    }
  });

  it('covers the numbers the brief asks for', () => {
    const paths = METRICS.map((m) => m.path);
    for (const p of [
      'host.iops',
      'host.mbps',
      'ftl.waf',
      'gc.runs',
      'gc.page_copies',
      'flash.reads',
      'flash.programs',
      'flash.erases',
      'ftl.buffer_read_hits',
      'ftl.rmw_reads',
      'flash.bad_blocks',
      'flash.erase_count.min',
      'flash.erase_count.max',
      'power.failures',
      'power.lost_pages',
      'power.last_recovery_ns',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('reads dotted paths and formats latency', () => {
    expect(metricAt(cli, 'host.read.lat_us.p50')).toBe(cli.host.read.lat_us.p50);
    expect(metricAt(cli, 'sim.stalled')).toBe(0);
    expect(metricAt(cli, 'no.such.path')).toBeNaN();
    expect(metricAt(null, 'host.iops')).toBeNaN();
  });
});
