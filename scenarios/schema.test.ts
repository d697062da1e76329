// The schema the browser's editor validates with: every shipped scenario must
// pass it, and bad documents must fail it at the same place the model's
// loader reports (core/tests/scenario_loader_test.cc has the C++ twin of each
// case). Rules across fields are the loader's alone; the last test pins that
// boundary.
import { describe, it, expect } from 'vitest';
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const scenarioDir = fileURLToPath(new URL('.', import.meta.url));
const schema = JSON.parse(readFileSync(join(scenarioDir, 'schema.json'), 'utf8'));
// Strict mode, so that the schema stays usable by the strictest Ajv set-up.
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(schema);

function scenarioFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') files.push(...scenarioFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.json') && entry.name !== 'schema.json')
      files.push(path);
  }
  return files.sort();
}

// Where validation failed, as JSON pointers; an unknown key points at the key
// itself, as the loader's path does.
function errorPaths(doc: unknown): string[] {
  expect(validate(doc)).toBe(false);
  return (validate.errors ?? []).map((e) =>
    e.keyword === 'additionalProperties'
      ? `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`
      : e.instancePath,
  );
}

describe('shipped scenarios', () => {
  const files = scenarioFiles(scenarioDir);

  it('include the starter set', () => {
    const names = files.map((f) => relative(scenarioDir, f));
    for (const name of [
      'default',
      'sequential-write',
      'random-read-qd1',
      'gc-under-pressure',
      'mixed-flows',
      'trace-replay',
    ]) {
      expect(names).toContain(join('basics', `${name}.json`));
    }
  });

  it.each(files.map((f) => [relative(scenarioDir, f), f]))('%s validates', (_name, file) => {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(doc.title).toBeTruthy();
    expect(doc.description).toBeTruthy();
  });
});

describe('bad documents fail where the loader says', () => {
  const flows17 = Array.from({ length: 17 }, () => ({}));
  const cases: Array<[string, unknown, string]> = [
    ['integer below range', { device: { geometry: { channels: 0 } } }, '/device/geometry/channels'],
    [
      'integer above range',
      { device: { geometry: { channels: 65 } } },
      '/device/geometry/channels',
    ],
    ['wrong type', { device: { geometry: { channels: 'abc' } } }, '/device/geometry/channels'],
    [
      'string for a number',
      { precondition: { fill_fraction: 'half' } },
      '/precondition/fill_fraction',
    ],
    ['number for a boolean', { device: { ftl: { gc: { enabled: 1 } } } }, '/device/ftl/gc/enabled'],
    ['number for a string', { title: 5 }, '/title'],
    ['number for an object', { device: 5 }, '/device'],
    ['object for an array', { workload: { flows: {} } }, '/workload/flows'],
    ['number for an array element object', { workload: { flows: [3] } }, '/workload/flows/0'],
    ['array at the top level', [1, 2], ''],
    [
      'non-integer',
      { device: { geometry: { blocks_per_plane: 64.5 } } },
      '/device/geometry/blocks_per_plane',
    ],
    ['negative', { seed: -1 }, '/seed'],
    ['negative time', { run: { max_time_ns: -5e9 } }, '/run/max_time_ns'],
    ['NaN', { precondition: { fill_fraction: NaN } }, '/precondition/fill_fraction'],
    ['Infinity', { device: { geometry: { channels: Infinity } } }, '/device/geometry/channels'],
    ['unknown key', { device: { flash: { cell: 'TLC' } } }, '/device/flash/cell'],
    ['unknown top-level key', { sed: 1 }, '/sed'],
    ['unknown key in a flow', { workload: { flows: [{}, { qd: 4 }] } }, '/workload/flows/1/qd'],
    ['bad enum string', { device: { flash: { cell_type: 'penta' } } }, '/device/flash/cell_type'],
    [
      'enum in the wrong case',
      { device: { flash: { cell_type: 'tlc' } } },
      '/device/flash/cell_type',
    ],
    ['enum of the wrong type', { device: { ftl: { gc: { policy: 1 } } } }, '/device/ftl/gc/policy'],
    [
      'unknown record kind',
      { observation: { disabled_points: ['gc_start', 'gc'] } },
      '/observation/disabled_points/1',
    ],
    ['0 or a range', { device: { flash: { read_ns: 500 } } }, '/device/flash/read_ns'],
    [
      'not one of the sizes',
      { device: { geometry: { page_bytes: 5000 } } },
      '/device/geometry/page_bytes',
    ],
    ['not a power of two', { observation: { ring_records: 3000 } }, '/observation/ring_records'],
    [
      'not a multiple of 512',
      { workload: { flows: [{ request_bytes: 1000 }] } },
      '/workload/flows/0/request_bytes',
    ],
    [
      'zero weight',
      { workload: { flows: [{ sizes: [{ weight: 0 }] }] } },
      '/workload/flows/0/sizes/0/weight',
    ],
    [
      'rate between 0 and 1',
      { workload: { flows: [{ arrival_rate_iops: 0.5 }] } },
      '/workload/flows/0/arrival_rate_iops',
    ],
    [
      'nested array element',
      { workload: { flows: [{}, { sizes: [{ bytes: 100 }] }] } },
      '/workload/flows/1/sizes/0/bytes',
    ],
    [
      'bad array element',
      { faults: { power_fail_at_ns: [10, 'soon'] } },
      '/faults/power_fail_at_ns/1',
    ],
    ['empty name', { workload: { flows: [{ name: '' }] } }, '/workload/flows/0/name'],
    ['no sizes', { workload: { flows: [{ sizes: [] }] } }, '/workload/flows/0/sizes'],
    ['too many flows', { workload: { flows: flows17 } }, '/workload/flows'],
    [
      'sizes and request_bytes',
      { workload: { flows: [{ sizes: [{}], request_bytes: 4096 }] } },
      '/workload/flows/0/request_bytes',
    ],
    [
      'trace path and text',
      { workload: { trace: { path: 'a.trace', text: '0 0 0 8 1' } } },
      '/workload/trace/text',
    ],
    ['memory limit below 1 MiB', { run: { memory_limit_bytes: 1000 } }, '/run/memory_limit_bytes'],
  ];

  it.each(cases)('%s', (_name, doc, path) => {
    expect(errorPaths(doc)).toContain(path);
  });
});

describe('the schema and the loader divide the work', () => {
  it('accepts defaults and the full value ranges', () => {
    expect(validate({})).toBe(true);
    expect(
      validate({
        $schema: '../schema.json',
        run: { max_time_ns: 2e9 },
        device: { flash: { read_ns: 0 } },
      }),
    ).toBe(true);
  });

  it('leaves rules across fields to the loader', () => {
    // Each is refused by the loader (see "rules across fields" in
    // docs/scenario-format.md) but is valid field by field.
    const crossFieldOnly = [
      { device: { ftl: { gc: { foreground_free_blocks: 6, background_free_blocks: 6 } } } },
      { device: { ftl: { buffer: { capacity_bytes: 1000000 } } } },
      { workload: { flows: [{ lba_start_fraction: 0.5, lba_end_fraction: 0.5 }] } },
      { faults: { power_fail_at_ns: [1000, 5000, 5000] } },
      {
        device: {
          geometry: {
            channels: 16,
            chips_per_channel: 8,
            planes_per_die: 4,
            blocks_per_plane: 4096,
            pages_per_block: 256,
          },
        },
      },
    ];
    for (const doc of crossFieldOnly) expect(validate(doc)).toBe(true);
  });
});
