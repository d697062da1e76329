// Turning Ajv's errors into what the editor shows: one line per problem, named
// by the same dotted JSON path the model's loader uses
// (`workload.flows[0].queue_depth`), with a message in the loader's words
// (`0 is out of range; allowed 1..64`). Pure functions: no Ajv instance needed.
import type { ErrorObject } from 'ajv';

export interface ScenarioIssue {
  /** Dotted path, e.g. `device.geometry.channels`; `(top level)` for the root. */
  path: string;
  message: string;
  /** JSON pointer of the offending value or key (schema issues). */
  pointer?: string;
  /** 1-based line and column, for JSON syntax errors only. */
  line?: number;
  column?: number;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * JSON pointer (`/workload/flows/0/queue_depth`) to a dotted path
 * (`workload.flows[0].queue_depth`). When `doc` is given, a numeric segment is
 * an index only if the value there is an array; without it, digits mean index.
 */
export function pointerToPath(pointer: string, doc?: unknown): string {
  if (pointer === '' || pointer === '/') return '(top level)';
  const segments = pointer.split('/').slice(1).map(unescapePointerSegment);
  let out = '';
  let node: unknown = doc;
  for (const seg of segments) {
    const isIndex = /^(0|[1-9][0-9]*)$/.test(seg) && (doc === undefined ? true : Array.isArray(node));
    if (isIndex) out += `[${seg}]`;
    else if (IDENT.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
    if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[seg];
    else node = undefined;
  }
  return out;
}

/** Appends a key to a dotted path. */
export function childPath(path: string, key: string): string {
  const base = path === '(top level)' ? '' : path;
  if (IDENT.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return show(value);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

type Schema = Record<string, unknown>;

function num(schema: Schema, key: string): number | undefined {
  const v = schema[key];
  return typeof v === 'number' ? v : undefined;
}

/** "1..64", "more than 0, at most 1", "at least 512", or '' if unbounded. */
export function rangeText(schema: Schema): string {
  const min = num(schema, 'minimum');
  const xmin = num(schema, 'exclusiveMinimum');
  const max = num(schema, 'maximum');
  const xmax = num(schema, 'exclusiveMaximum');
  if (min !== undefined && max !== undefined) return `${min}..${max}`;
  const parts: string[] = [];
  if (min !== undefined) parts.push(`at least ${min}`);
  if (xmin !== undefined) parts.push(`more than ${xmin}`);
  if (max !== undefined) parts.push(`at most ${max}`);
  if (xmax !== undefined) parts.push(`less than ${xmax}`);
  return parts.join(', ');
}

function branchText(schema: Schema): string | null {
  if ('const' in schema) return show(schema.const);
  const range = rangeText(schema);
  return range === '' ? null : range;
}

function parentOf(e: ErrorObject): Schema {
  const p = e.parentSchema;
  return p !== null && typeof p === 'object' ? (p as Schema) : {};
}

/** One error's message in the loader's words (without the path). */
function messageFor(e: ErrorObject): string {
  const parent = parentOf(e);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `expected ${article(String(params.type))}, got ${typeOf(e.data)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${show(e.data)} is out of range; allowed ${rangeText(parent)}`;
    case 'multipleOf':
      return `${show(e.data)} is not a multiple of ${String(params.multipleOf)}`;
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues.map(show).join(', ') : '';
      return `${show(e.data)} is not allowed; allowed: ${allowed}`;
    }
    case 'const':
      return `must be ${show(params.allowedValue)}, got ${show(e.data)}`;
    case 'additionalProperties': {
      const props = parent.properties;
      const keys = props !== null && typeof props === 'object' ? Object.keys(props) : [];
      return keys.length ? `unknown key; allowed keys: ${keys.join(', ')}` : 'unknown key';
    }
    case 'required':
      return 'is required';
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `is too short; at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `is too long (${typeof e.data === 'string' ? e.data.length : '?'} characters); at most ${String(params.limit)}`;
    case 'minItems':
      return `needs at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `has ${Array.isArray(e.data) ? e.data.length : '?'} items; at most ${String(params.limit)}`;
    default:
      return e.message ?? `fails the "${e.keyword}" rule`;
  }
}

/**
 * Ajv errors (compiled with allErrors and verbose) to issues, in document order
 * of appearance, one per path and problem.
 */
export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined, doc?: unknown): ScenarioIssue[] {
  if (!errors || errors.length === 0) return [];
  const consumed = new Set<ErrorObject>();
  const issues: ScenarioIssue[] = [];
  const seen = new Set<string>();
  const push = (path: string, message: string, pointer: string) => {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    issues.push({ path, message, pointer });
  };
  const childPointer = (pointer: string, key: string) => `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

  // anyOf: fold the failed branches into one "allowed A or B" message.
  for (const e of errors) {
    if (e.keyword !== 'anyOf') continue;
    const prefix = `${e.schemaPath}/`;
    const children = errors.filter((c) => c !== e && c.instancePath === e.instancePath && c.schemaPath.startsWith(prefix));
    children.forEach((c) => consumed.add(c));
    consumed.add(e);
    const branches = Array.isArray(e.schema) ? (e.schema as Schema[]) : [];
    const texts = branches.map(branchText);
    const path = pointerToPath(e.instancePath, doc);
    if (texts.length && texts.every((t) => t !== null)) {
      push(path, `${show(e.data)} is out of range; allowed ${texts.join(' or ')}`, e.instancePath);
    } else {
      const msgs = [...new Set(children.map(messageFor))];
      push(
        path,
        msgs.length ? `matches none of the allowed forms: ${msgs.join('; or ')}` : 'matches none of the allowed forms',
        e.instancePath,
      );
    }
  }

  for (const e of errors) {
    if (consumed.has(e)) continue;
    const path = pointerToPath(e.instancePath, doc);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      push(childPath(path, params.additionalProperty), messageFor(e), childPointer(e.instancePath, params.additionalProperty));
    } else if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      push(childPath(path, params.missingProperty), messageFor(e), e.instancePath);
    } else if (e.keyword === 'false schema') {
      // `dependentSchemas: { sizes: { properties: { request_bytes: false } } }`
      const m = /\/dependentSchemas\/([^/]+)\/properties\/([^/]+)\//.exec(e.schemaPath);
      const msg = m ? `give either "${unescapePointerSegment(m[1]!)}" or "${unescapePointerSegment(m[2]!)}", not both` : 'is not allowed here';
      push(path, msg, e.instancePath);
    } else {
      push(path, messageFor(e), e.instancePath);
    }
  }
  return issues;
}

/** JSON.parse with an error that carries a 1-based line and column. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; issue: ScenarioIssue } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    return { ok: false, issue: jsonSyntaxIssue(text, raw) };
  }
}

/** Locates a JSON.parse error message ("… at position 12 …") in the text. */
export function jsonSyntaxIssue(text: string, rawMessage: string): ScenarioIssue {
  let position: number | null = null;
  const pos = /at position (\d+)/.exec(rawMessage);
  if (pos) position = Number(pos[1]);
  else position = jsonErrorPosition(text);
  let message = rawMessage
    .replace(/^JSON\.parse: /, '')
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/, (\.\.\.)?"[\s\S]*" is not valid JSON$/, '')
    .replace(/ in JSON at position \d+/, '')
    .trim();
  if (text.trim() === '') message = 'the text is empty';
  if (message === '') message = 'syntax error';
  const issue: ScenarioIssue = { path: '(JSON)', message: `invalid JSON: ${message}` };
  if (position !== null) {
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = position - before.lastIndexOf('\n');
    issue.line = line;
    issue.column = column;
    issue.message = `line ${line}, column ${column}: invalid JSON: ${message}`;
  }
  return issue;
}

/**
 * The model's LoadResult.error (one problem per line: `path: message`) as
 * issues, so both sources render the same way.
 */
export function modelErrorIssues(error: string): ScenarioIssue[] {
  return error
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((line) => {
      const m = /^([^\s:]+(?:\s[^\s:]+)?):\s+(.*)$/.exec(line);
      return m ? { path: m[1]!, message: m[2]! } : { path: '(model)', message: line };
    });
}

/**
 * Offset of the first JSON syntax error in text (text.length when it ends
 * too early), or null if the text is valid JSON. Newer V8 messages do not
 * always say where the error is, so the editor finds it itself.
 */
export function jsonErrorPosition(text: string): number | null {
  let i = 0;
  const n = text.length;
  class Stop {
    constructor(readonly at: number) {}
  }
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const fail = (at = i): never => {
    throw new Stop(at);
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) fail(i + k);
    i += word.length;
  };
  const string = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i + 2);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(i + 1);
      } else i++;
    }
    fail(n);
  };
  const number = () => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 512) fail();
    ws();
    if (i >= n) fail(n);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? n : i);
        string();
        ws();
        if (text[i] !== ':') fail(i >= n ? n : i);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(i >= n ? n : i);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(i >= n ? n : i);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  try {
    value(0);
    ws();
    return i < n ? i : null;
  } catch (e) {
    if (e instanceof Stop) return Math.min(e.at, n);
    throw e;
  }
}

/** Segments of a JSON pointer (`/a/0/b` → ['a', '0', 'b']). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer.split('/').slice(1).map(unescapePointerSegment);
}

/** Segments of a dotted path (`workload.flows[0].queue_depth`, `a["b c"]`); [] for `(top level)`. */
export function pathSegments(path: string): string[] | null {
  if (path === '(top level)' || path === '') return [];
  const out: string[] = [];
  const re = /(?:^|\.)([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let i = 0;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m) return null;
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(m[2]);
    else out.push(JSON.parse(m[3]!) as string);
    i = re.lastIndex;
  }
  return out;
}

/**
 * Where the value at `segments` sits in the JSON text: the offset of its key
 * for an object member (the start of the value for an array element), and the
 * end of the value; null when the text does not parse that far or lacks it.
 * The deepest existing ancestor is returned when the full path is missing
 * (an unknown key is reported at itself; a missing one at its parent).
 */
export function locateInJson(text: string, segments: readonly string[]): { start: number; end: number } | null {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && /\s/.test(text[i]!)) i++;
  };
  const skipString = (): string | null => {
    const start = i;
    i++;
    while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= n) return null;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return null;
    }
  };
  // Skips one value; returns false on a syntax error.
  const skipValue = (): boolean => {
    ws();
    const c = text[i];
    if (c === '"') return skipString() !== null;
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) {
        i++;
        return true;
      }
      for (;;) {
        if (c === '{') {
          ws();
          if (text[i] !== '"' || skipString() === null) return false;
          ws();
          if (text[i] !== ':') return false;
          i++;
        }
        if (!skipValue()) return false;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === close) {
          i++;
          return true;
        }
        return false;
      }
    }
    const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  // Finds segments[depth..] inside the value starting at i.
  const find = (depth: number, keyStart: number): { start: number; end: number } | null => {
    ws();
    const valueStart = i;
    if (depth === segments.length) {
      if (!skipValue()) return null;
      return { start: keyStart >= 0 ? keyStart : valueStart, end: i };
    }
    const seg = segments[depth]!;
    const c = text[i];
    const here = () => {
      i = valueStart;
      return skipValue() ? { start: keyStart >= 0 ? keyStart : valueStart, end: i } : null;
    };
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return here();
      for (;;) {
        ws();
        const ks = i;
        if (text[i] !== '"') return null;
        const key = skipString();
        if (key === null) return null;
        ws();
        if (text[i] !== ':') return null;
        i++;
        if (key === seg) return find(depth + 1, ks);
        if (!skipValue()) return null;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        return here();
      }
    }
    if (c === '[' && /^\d+$/.test(seg)) {
      const want = Number(seg);
      i++;
      for (let k = 0; ; k++) {
        ws();
        if (text[i] === ']') return here();
        if (k === want) return find(depth + 1, -1);
        if (!skipValue()) return null;
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        return here();
      }
    }
    return here();
  };
  return find(0, -1);
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
