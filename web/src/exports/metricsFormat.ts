// Metrics exports in exactly the CLI's formats (`ssdplay run --format csv|json`),
// so a file saved from the page diffs cleanly against a headless run.
//
// The CLI prints through nlohmann::json: object keys sorted, doubles in its
// number format (always with a fraction or exponent: 0.0, 1188.96, 3.2e-05),
// integers as integers. The page receives the metrics already parsed, where
// 0.0 and 0 are the same number, so which fields are doubles is listed here
// (core/src/sim/metrics.h).

/** Dotted metric paths whose C++ type is double. */
const DOUBLE_PATHS: RegExp[] = [
  /^sim\.wall_s$/,
  /^host\.(iops|mbps)$/,
  /^host\.pcie\.(down|up)_utilization$/,
  /^host\.(read|write)\.lat_us\.(mean|p50|p99|p999|max)$/,
  /^flash\.(channel|die)_utilization$/,
  /^ftl\.waf$/,
  /^instrumentation\.(history_ms|records_per_s|capacity_s|dram_utilization)$/,
  /^xssd\.(destage_page_us_mean|ingest_mbps|update_share)$/,
  /^xssd\.secondaries\[\d+\]\.repl_delay_(min|p50|p99|max)_us$/,
  /^db_log\.(txn_per_s|log_mbps|latency_(mean|p50|p99)_us|group_bytes_mean|flush_us_mean|tail_read_us)$/,
];

export function isDoublePath(path: string): boolean {
  return DOUBLE_PATHS.some((r) => r.test(path));
}

/**
 * A double as nlohmann::json dumps it: the shortest round-trip digits, laid
 * out like its `format_buffer` (plain notation for decimal exponents in
 * (-4, 15], with ".0" added to whole numbers; otherwise d.ddde±XX).
 */
export function formatDouble(x: number): string {
  if (!Number.isFinite(x)) return 'null';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const k = digits.length;
  const n = Number(expText) + 1; // the decimal point sits after n digits
  const maxExp = 15;
  const minExp = -4;
  let body: string;
  if (k <= n && n <= maxExp) body = `${digits}${'0'.repeat(n - k)}.0`;
  else if (0 < n && n <= maxExp) body = `${digits.slice(0, n)}.${digits.slice(n)}`;
  else if (minExp < n && n <= 0) body = `0.${'0'.repeat(-n)}${digits}`;
  else {
    const e = n - 1;
    const abs = Math.abs(e);
    body = `${k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`}e${e < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  }
  return sign + body;
}

/** One scalar as the CLI prints it, given its dotted path. */
export function formatScalar(path: string, value: unknown): string {
  if (typeof value === 'number') {
    if (isDoublePath(path)) return formatDouble(value);
    return Number.isInteger(value) ? String(value) : formatDouble(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

function sortedKeys(obj: object): string[] {
  return Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * [dotted path, value] for every leaf, keys sorted at each level (the CLI's
 * order); array elements are named path[i].
 */
export function flattenMetrics(metrics: unknown, prefix = ''): [string, unknown][] {
  if (Array.isArray(metrics)) return metrics.flatMap((v, i) => flattenMetrics(v, `${prefix}[${i}]`));
  if (!isObject(metrics)) return prefix === '' ? [] : [[prefix, metrics]];
  const out: [string, unknown][] = [];
  for (const key of sortedKeys(metrics)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const v = metrics[key];
    if (isObject(v) || Array.isArray(v)) out.push(...flattenMetrics(v, path));
    else out.push([path, v]);
  }
  return out;
}

/** `metric,value` CSV, identical to `ssdplay run --format csv`. */
export function metricsToCsv(metrics: unknown): string {
  const lines = ['metric,value'];
  for (const [path, value] of flattenMetrics(metrics)) lines.push(`${path},${formatScalar(path, value)}`);
  return `${lines.join('\n')}\n`;
}

/** Pretty JSON, identical to `ssdplay run --format json` (sorted keys, 2-space indent). */
export function metricsToJson(metrics: unknown): string {
  const write = (value: unknown, path: string, indent: string): string => {
    if (Array.isArray(value)) {
      if (value.length === 0) return '[]';
      const inner = indent + '  ';
      return `[\n${value.map((v, i) => inner + write(v, `${path}[${i}]`, inner)).join(',\n')}\n${indent}]`;
    }
    if (isObject(value)) {
      const keys = sortedKeys(value);
      if (keys.length === 0) return '{}';
      const inner = indent + '  ';
      const parts = keys.map((k) => `${inner}${JSON.stringify(k)}: ${write(value[k], path ? `${path}.${k}` : k, inner)}`);
      return `{\n${parts.join(',\n')}\n${indent}}`;
    }
    return formatScalar(path, value);
  };
  return `${write(metrics, '', '')}\n`;
}
