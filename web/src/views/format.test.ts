import { describe, expect, it } from 'vitest';
import {
  decimalsFor,
  formatCount,
  formatDuration,
  formatMicros,
  tickUnit,
  timeTickFormatter,
  timeUnitFor,
} from './format';

describe('timeUnitFor', () => {
  it('picks the largest unit in which the span is at least 2', () => {
    expect(timeUnitFor(500).unit).toBe('ns');
    expect(timeUnitFor(1999).unit).toBe('ns');
    expect(timeUnitFor(2000).unit).toBe('µs');
    expect(timeUnitFor(1_500_000).unit).toBe('µs');
    expect(timeUnitFor(5_000_000).unit).toBe('ms');
    expect(timeUnitFor(3e9).unit).toBe('s');
    expect(timeUnitFor(-5_000_000).unit).toBe('ms');
  });
});

describe('decimalsFor', () => {
  it('gives enough decimals to separate ticks', () => {
    expect(decimalsFor(1_000_000, { unit: 'ms', ns: 1e6 })).toBe(0);
    expect(decimalsFor(500_000, { unit: 'ms', ns: 1e6 })).toBe(1);
    expect(decimalsFor(20_000, { unit: 'ms', ns: 1e6 })).toBe(2);
    expect(decimalsFor(0, { unit: 'ms', ns: 1e6 })).toBe(0);
  });
});

describe('timeTickFormatter', () => {
  it('formats a millisecond axis', () => {
    const f = timeTickFormatter(0, 10_000_000, 2_000_000);
    expect(f(0)).toBe('0 ms');
    expect(f(4_000_000)).toBe('4 ms');
  });
  it('uses decimals for half steps and trims trailing zeros', () => {
    const f = timeTickFormatter(0, 3_000_000, 500_000);
    expect(f(1_500_000)).toBe('1.5 ms');
    expect(f(2_000_000)).toBe('2 ms');
  });
  it('reads a short span in µs', () => {
    const f = timeTickFormatter(0, 1_500_000, 500_000);
    expect(f(1_000_000)).toBe('1000 µs');
  });
  it('steps down a unit when a deep zoom far from zero would need many decimals', () => {
    // 3.2 s .. 3.2001 s with 20 µs ticks: seconds would need 5 decimals.
    expect(tickUnit(3.2e9, 3.2001e9, 20_000).unit).toBe('ms');
    const f = timeTickFormatter(3.2e9, 3.2001e9, 20_000);
    expect(f(3.20002e9)).toBe('3200.02 ms');
  });
});

describe('formatDuration', () => {
  it('uses three significant digits in the best unit', () => {
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(12_345)).toBe('12.3 µs');
    expect(formatDuration(4_560_000)).toBe('4.56 ms');
    expect(formatDuration(1_230_000_000)).toBe('1.23 s');
    expect(formatDuration(0)).toBe('0 ns');
  });
  it('carries into the next unit when rounding reaches 1000', () => {
    expect(formatDuration(999_960)).toBe('1 ms');
  });
  it('handles non-finite input', () => {
    expect(formatDuration(NaN)).toBe('—');
  });
});

describe('formatCount / formatMicros', () => {
  it('compacts counts', () => {
    expect(formatCount(950)).toBe('950');
    expect(formatCount(12_345)).toBe('12.3k');
    expect(formatCount(4_560_000)).toBe('4.56M');
    expect(formatCount(999_999)).toBe('1M');
    expect(formatCount(0.5)).toBe('0.5');
  });
  it('formats microseconds', () => {
    expect(formatMicros(0.85)).toBe('0.85 µs');
    expect(formatMicros(12.34)).toBe('12.3 µs');
    expect(formatMicros(1234.4)).toBe('1,234 µs');
    expect(formatMicros(NaN)).toBe('—');
  });
});
