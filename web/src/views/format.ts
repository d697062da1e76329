// Number and time formatting shared by the views. Pure: unit-tested in Node.

export interface TimeUnit {
  unit: 'ns' | 'µs' | 'ms' | 's';
  /** Nanoseconds per unit. */
  ns: number;
}

const UNITS: TimeUnit[] = [
  { unit: 'ns', ns: 1 },
  { unit: 'µs', ns: 1e3 },
  { unit: 'ms', ns: 1e6 },
  { unit: 's', ns: 1e9 },
];

/**
 * The unit for an axis spanning spanNs of simulated time: the largest unit in
 * which the span is at least 2 (so 0..1.5 ms reads in µs, 0..5 ms in ms).
 */
export function timeUnitFor(spanNs: number): TimeUnit {
  const span = Math.abs(spanNs);
  for (let i = UNITS.length - 1; i > 0; i--) {
    const u = UNITS[i]!;
    if (span >= 2 * u.ns) return u;
  }
  return UNITS[0]!;
}

/** Decimals needed to tell apart ticks stepNs apart in unit u (0..6). */
export function decimalsFor(stepNs: number, u: TimeUnit): number {
  const step = Math.abs(stepNs) / u.ns;
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  const d = -Math.floor(Math.log10(step) + 1e-9);
  return Math.max(0, Math.min(6, d));
}

/**
 * A tick formatter for a time axis over [d0, d1] ns with ticks stepNs apart:
 * "0 ms", "0.5 ms", "1 ms", … (trailing zeros trimmed, unit on every tick).
 * The unit follows the largest value shown; when the ticks are so close that
 * more than four decimals would be needed (a deep zoom far from t = 0), it
 * steps down to a smaller unit instead.
 */
export function timeTickFormatter(d0: number, d1: number, stepNs: number): (ns: number) => string {
  const u = tickUnit(d0, d1, stepNs);
  const decimals = decimalsFor(stepNs, u);
  return (ns: number) => `${trimZeros((ns / u.ns).toFixed(decimals))} ${u.unit}`;
}

export function tickUnit(d0: number, d1: number, stepNs: number): TimeUnit {
  let i = UNITS.indexOf(timeUnitFor(Math.max(Math.abs(d0), Math.abs(d1))));
  while (i > 0 && decimalsFor(stepNs, UNITS[i]!) > 4) i--;
  return UNITS[i]!;
}

/** A duration with three significant digits in the best unit: "850 ns", "12.3 µs", "4.56 ms", "1.23 s". */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return '—';
  const a = Math.abs(ns);
  let u = UNITS[0]!;
  for (let i = UNITS.length - 1; i >= 0; i--) {
    if (a >= UNITS[i]!.ns) {
      u = UNITS[i]!;
      break;
    }
  }
  const v = ns / u.ns;
  // Rounding can carry into the next unit (999.96 µs → "1000 µs"): move up.
  const r = Number(v.toPrecision(3));
  if (Math.abs(r) >= 1000 && u.unit !== 's') return formatDuration(Math.sign(ns) * 1000 * u.ns);
  return `${trimZeros(u.unit === 'ns' ? String(Math.round(v)) : r.toString())} ${u.unit}`;
}

/** Latency in µs with sensible precision: "0.85 µs", "12.3 µs", "1,234 µs". */
export function formatMicros(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us >= 1000) return `${Math.round(us).toLocaleString('en-US')} µs`;
  return `${trimZeros(Number(us.toPrecision(3)).toString())} µs`;
}

/** Compact count: 950, 12.3k, 4.56M, 1.2G. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const units: [number, string][] = [
    [1, ''],
    [1e3, 'k'],
    [1e6, 'M'],
    [1e9, 'G'],
  ];
  const a = Math.abs(n);
  let i = 0;
  while (i + 1 < units.length && a >= units[i + 1]![0]) i++;
  let r = Number((n / units[i]![0]).toPrecision(3));
  // Rounding can carry into the next unit (999,999 → "1000k"): move up.
  if (Math.abs(r) >= 1000 && i + 1 < units.length) {
    i++;
    r = Number((n / units[i]![0]).toPrecision(3));
  }
  return `${trimZeros(r.toString())}${units[i]![1]}`;
}

function trimZeros(s: string): string {
  if (!s.includes('.') || s.includes('e')) return s;
  return s.replace(/\.?0+$/, '');
}
