// Number formatting for the shell (status line, metrics panel). Pure.

const TIME_UNITS: [number, string][] = [
  [1e9, 's'],
  [1e6, 'ms'],
  [1e3, 'µs'],
];

/** Simulated time with a fixed number of decimals in the best unit: "12.345 ms". */
export function formatSimTime(ns: number, decimals = 3): string {
  if (!Number.isFinite(ns)) return '—';
  const a = Math.abs(ns);
  for (const [v, u] of TIME_UNITS) if (a >= v) return `${(ns / v).toFixed(decimals)} ${u}`;
  return `${Math.round(ns)} ns`;
}

/** Three significant digits, trailing zeros trimmed: 0.458, 12.3, 1,234 (grouped from 10⁴). */
export function formatNumber(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  const r = Number(x.toPrecision(digits));
  return String(r);
}

/** Integer counter, grouped: 12,345. */
export function formatInt(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return Math.round(x).toLocaleString('en-US');
}

/** A latency in µs: "9.70", "178.7", "1,189". */
export function formatMicros(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us === 0) return '0';
  if (us >= 1000) return Math.round(us).toLocaleString('en-US');
  if (us >= 100) return us.toFixed(1);
  return us.toFixed(2);
}

/** A fraction as a percentage: 0.2027 → "20.3%". */
export function formatPercent(f: number): string {
  if (!Number.isFinite(f)) return '—';
  return `${(f * 100).toFixed(f >= 0.1 || f === 0 ? 1 : 2)}%`;
}

/** Bytes in binary units: "5.2 MiB". */
export function formatBytes(b: number): string {
  if (!Number.isFinite(b)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}
