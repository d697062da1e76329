import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flattenMetrics, formatDouble, formatScalar, isDoublePath, metricsToCsv, metricsToJson } from './metricsFormat';

// Fixtures are verbatim `ssdplay run <scenario> --format json|csv` output
// (two separate runs, so only sim.wall_s differs between a pair).
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const withoutWall = (csv: string) =>
  csv
    .split('\n')
    .filter((l) => !l.startsWith('sim.wall_s,'))
    .join('\n');

describe('formatDouble (nlohmann::json number format)', () => {
  // Expected strings printed by nlohmann::json(d).dump() with the system's nlohmann.
  it.each([
    [0, '0.0'],
    [-0, '-0.0'],
    [1, '1.0'],
    [5, '5.0'],
    [3.2e-5, '3.2e-05'],
    [1e-4, '0.0001'],
    [0.00012, '0.00012'],
    [1e21, '1e+21'],
    [1e15, '1e+15'],
    [1e14, '100000000000000.0'],
    [123.456, '123.456'],
    [-7.5e-7, '-7.5e-07'],
    [0.1, '0.1'],
    [1188.96, '1188.96'],
    [1.2345678901234567e20, '1.2345678901234567e+20'],
    [2.5e-10, '2.5e-10'],
    [100, '100.0'],
    [1 / 3, '0.3333333333333333'],
    [NaN, 'null'],
  ])('%d → %s', (x, text) => {
    expect(formatDouble(x)).toBe(text);
  });
});

describe('formatScalar', () => {
  it('knows which metrics are doubles', () => {
    expect(isDoublePath('host.read.lat_us.p999')).toBe(true);
    expect(isDoublePath('host.read.lat_us.count')).toBe(false);
    expect(formatScalar('host.iops', 0)).toBe('0.0');
    expect(formatScalar('host.requests', 0)).toBe('0');
    expect(formatScalar('sim.stalled', false)).toBe('false');
    expect(formatScalar('new.metric', 2.5)).toBe('2.5');
  });
});

describe('flattenMetrics', () => {
  it('flattens nested objects to sorted dotted paths', () => {
    expect(flattenMetrics({ b: { y: 1, x: { z: true } }, a: 2 })).toEqual([
      ['a', 2],
      ['b.x.z', true],
      ['b.y', 1],
    ]);
    expect(flattenMetrics(null)).toEqual([]);
  });
});

describe.each(['default', 'sequential-write'])('matches the CLI byte for byte (%s)', (name) => {
  const json = fixture(`cli-${name}.json`);
  const csv = fixture(`cli-${name}.csv`);
  const metrics: unknown = JSON.parse(json);

  it('CSV', () => {
    expect(withoutWall(metricsToCsv(metrics))).toBe(withoutWall(csv));
  });

  it('JSON', () => {
    expect(metricsToJson(metrics)).toBe(json);
  });
});
