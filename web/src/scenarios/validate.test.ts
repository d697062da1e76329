import { describe, expect, it } from 'vitest';
import { checkScenarioText, checkScenarioValue } from './validate';
import {
  childPath,
  jsonErrorPosition,
  jsonSyntaxIssue,
  lineColumn,
  locateInJson,
  pathSegments,
  pointerSegments,
  modelErrorIssues,
  parseJsonText,
  pointerToPath,
  rangeText,
} from './schemaErrors';

describe('pointerToPath', () => {
  it.each([
    ['', '(top level)'],
    ['/device/geometry/channels', 'device.geometry.channels'],
    ['/workload/flows/0/queue_depth', 'workload.flows[0].queue_depth'],
    ['/workload/flows/12/sizes/3/bytes', 'workload.flows[12].sizes[3].bytes'],
    ['/a~1b/c~0d', '["a/b"]["c~d"]'],
    ['/odd key', '["odd key"]'],
  ])('%s → %s', (pointer, path) => {
    expect(pointerToPath(pointer)).toBe(path);
  });

  it('uses the document to tell indices from numeric keys', () => {
    expect(pointerToPath('/m/0', { m: { '0': 1 } })).toBe('m["0"]');
    expect(pointerToPath('/m/0', { m: [1] })).toBe('m[0]');
  });

  it('appends keys', () => {
    expect(childPath('(top level)', 'foo')).toBe('foo');
    expect(childPath('device.geometry', 'foo')).toBe('device.geometry.foo');
    expect(childPath('device', 'a b')).toBe('device["a b"]');
  });
});

describe('rangeText', () => {
  it('describes bounds like the loader does', () => {
    expect(rangeText({ minimum: 1, maximum: 64 })).toBe('1..64');
    expect(rangeText({ exclusiveMinimum: 0, maximum: 1 })).toBe('more than 0, at most 1');
    expect(rangeText({ minimum: 512 })).toBe('at least 512');
    expect(rangeText({})).toBe('');
  });
});

describe('checkScenarioText', () => {
  it('accepts a valid scenario', () => {
    const r = checkScenarioText('{"title":"t","device":{"geometry":{"channels":4}}}');
    expect(r.ok).toBe(true);
    expect(r.issues).toEqual([]);
  });

  it('names the field and the allowed range, in the loader’s words', () => {
    const r = checkScenarioText(
      JSON.stringify({
        title: 5,
        device: { geometry: { channels: 0, foo: 1, page_bytes: 1000 }, flash: { read_ns: 500, cell_type: 'XLC' } },
        workload: { flows: [{ queue_depth: -1, sizes: [{ bytes: 4096 }], request_bytes: 4096 }] },
      }),
    );
    expect(r.ok).toBe(false);
    const lines = r.issues.map((i) => `${i.path}: ${i.message}`);
    expect(lines).toContain('title: expected a string, got 5');
    expect(lines).toContain('device.geometry.channels: 0 is out of range; allowed 1..64');
    expect(lines.some((l) => l.startsWith('device.geometry.foo: unknown key; allowed keys: channels,'))).toBe(true);
    expect(lines).toContain('device.geometry.page_bytes: 1000 is not allowed; allowed: 2048, 4096, 8192, 16384, 32768');
    expect(lines).toContain('device.flash.read_ns: 500 is out of range; allowed 0 or 1000..10000000');
    expect(lines).toContain('device.flash.cell_type: "XLC" is not allowed; allowed: "SLC", "MLC", "TLC", "QLC"');
    expect(lines).toContain('workload.flows[0].queue_depth: -1 is out of range; allowed 1..65535');
    expect(lines).toContain('workload.flows[0].request_bytes: give either "sizes" or "request_bytes", not both');
    // One line per problem: the anyOf's inner failures are folded into one.
    expect(lines.filter((l) => l.startsWith('device.flash.read_ns'))).toHaveLength(1);
  });

  it('reports JSON syntax errors with line and column', () => {
    const r = checkScenarioText('{\n  "title": "x",\n  "seed": ,\n}');
    expect(r.ok).toBe(false);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]!.line).toBe(3);
    expect(r.issues[0]!.message).toMatch(/^line 3, column \d+: invalid JSON/);
  });

  it('rejects a non-object and an oversized text', () => {
    expect(checkScenarioValue([1]).issues[0]!.message).toBe('expected a JSON object, got an array');
    const big = checkScenarioText(`{"description":"${'x'.repeat(300 * 1024)}"}`);
    expect(big.issues[0]!.message).toMatch(/limit is 256 KiB/);
  });
});

describe('jsonSyntaxIssue', () => {
  it('handles both V8 message styles and empty text', () => {
    expect(jsonSyntaxIssue('{"a" 1}', 'Expected \':\' after property name in JSON at position 5 (line 1 column 6)')).toEqual({
      path: '(JSON)',
      message: "line 1, column 6: invalid JSON: Expected ':' after property name",
      line: 1,
      column: 6,
    });
    expect(jsonSyntaxIssue('', 'Unexpected end of JSON input').message).toBe('line 1, column 1: invalid JSON: the text is empty');
    const r = parseJsonText('[1, 2');
    expect(r.ok).toBe(false);
  });
});

describe('modelErrorIssues', () => {
  it('splits the loader’s message into path and text', () => {
    expect(
      modelErrorIssues(
        'device.geometry.channels: 0 is out of range; allowed 1..64\n(top level): expected a JSON object, got []\nline 1, column 3: invalid JSON\n',
      ),
    ).toEqual([
      { path: 'device.geometry.channels', message: '0 is out of range; allowed 1..64' },
      { path: '(top level)', message: 'expected a JSON object, got []' },
      { path: '(model)', message: 'line 1, column 3: invalid JSON' },
    ]);
  });
});

describe('jsonErrorPosition', () => {
  it.each([
    ['{"a": 1}', null],
    ['  [1, 2.5e3, "x\\u00e9", true, false, null, {}]  ', null],
    ['{"a": ,}', 6],
    ['[1, 2', 5],
    ['{"a" 1}', 5],
    ['[01]', 2],
    ['{"a": tru}', 9],
    ['{} x', 3],
    ['"abc', 4],
    ['', 0],
  ])('%j → %j', (text, pos) => {
    expect(jsonErrorPosition(text)).toBe(pos);
    // Cross-check against the engine: valid exactly when no position.
    let valid = true;
    try {
      JSON.parse(text);
    } catch {
      valid = false;
    }
    expect(valid).toBe(pos === null);
  });
});

describe('locating an issue in the text', () => {
  const text = '{\n  "title": "x",\n  "workload": {\n    "flows": [\n      { "queue_depth": 1 },\n      { "queue_depth": -1, "bogus": true }\n    ]\n  }\n}';

  it('turns paths and pointers into segments', () => {
    expect(pathSegments('workload.flows[1].queue_depth')).toEqual(['workload', 'flows', '1', 'queue_depth']);
    expect(pathSegments('a["b c"].d')).toEqual(['a', 'b c', 'd']);
    expect(pathSegments('(top level)')).toEqual([]);
    expect(pathSegments('line 1, column 3')).toBeNull();
    expect(pointerSegments('/a~1b/0')).toEqual(['a/b', '0']);
  });

  it('finds the key of an object member, inside arrays too', () => {
    const at = locateInJson(text, ['workload', 'flows', '1', 'queue_depth'])!;
    expect(text.slice(at.start, at.end)).toBe('"queue_depth": -1');
    expect(lineColumn(text, at.start)).toEqual({ line: 6, column: 9 });
    const bogus = locateInJson(text, ['workload', 'flows', '1', 'bogus'])!;
    expect(text.slice(bogus.start, bogus.end)).toBe('"bogus": true');
  });

  it('falls back to the deepest existing ancestor', () => {
    const at = locateInJson(text, ['workload', 'flows', '0', 'missing'])!;
    expect(text.slice(at.start, at.end)).toBe('{ "queue_depth": 1 }');
    expect(locateInJson('{"a": ', ['a'])).toBeNull();
  });

  it('points schema issues at their key', () => {
    const r = checkScenarioText(text);
    const issue = r.issues.find((i) => i.path === 'workload.flows[1].queue_depth')!;
    expect(issue.pointer).toBe('/workload/flows/1/queue_depth');
    const unknown = r.issues.find((i) => i.path === 'workload.flows[1].bogus')!;
    expect(unknown.pointer).toBe('/workload/flows/1/bogus');
  });
});
