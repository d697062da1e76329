// Byte and rate formatting for the X-SSD views. Pure: unit-tested.

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count in binary units, three significant digits: "512 B", "16 KiB", "1.56 MiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const sign = n < 0 ? '-' : '';
  let v = Math.abs(n);
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${sign}${Math.round(v)} B`;
  let r = Number(v.toPrecision(3));
  // Four digits read worse than the next unit's "0.977": move up.
  if (r >= 1000 && i < UNITS.length - 1) {
    i++;
    r = Number((v / 1024).toPrecision(3));
  }
  return `${sign}${r} ${UNITS[i]}`;
}

/** An exact byte count with thousands separators: "589,824 B". */
export function exactBytes(n: number): string {
  return `${Math.round(n).toLocaleString('en-US')} B`;
}

/** A rate in MB/s (decimal, like the metrics): "81.8 MB/s". */
export function formatMbps(mbps: number): string {
  if (!Number.isFinite(mbps)) return '—';
  return `${Number(mbps.toPrecision(3)).toLocaleString('en-US')} MB/s`;
}

/** Microseconds with sensible precision: "4.73 µs", "125 µs", "3,138 µs". */
export function formatUs(us: number): string {
  if (!Number.isFinite(us)) return '—';
  if (us >= 1000) return `${Math.round(us).toLocaleString('en-US')} µs`;
  return `${Number(us.toPrecision(3))} µs`;
}

/** Nice round tick values for a byte axis over [0, max]: multiples of a power-of-two step. */
export function byteTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0];
  let step = 1;
  while (max / step > count) step *= 2;
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(v);
  return out;
}
