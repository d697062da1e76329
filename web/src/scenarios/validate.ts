// Live validation of scenario text against scenarios/schema.json (the same
// schema the command-line tool's loader mirrors). The model's loader stays the
// authority: it also checks rules across fields and the memory estimate, and
// its message is shown when a scenario is applied.
import Ajv2020 from 'ajv/dist/2020';

import schema from '../../../scenarios/schema.json';
import { formatSchemaErrors, parseJsonText, type ScenarioIssue } from './schemaErrors';
import { MAX_SCENARIO_BYTES } from './share';

export type ScenarioCheck =
  | { ok: true; value: Record<string, unknown>; issues: [] }
  | { ok: false; value: unknown; issues: ScenarioIssue[] };

let compiled: ReturnType<Ajv2020['compile']> | null = null;

function validator(): ReturnType<Ajv2020['compile']> {
  if (!compiled) {
    // verbose: errors carry the offending value and the schema node, which the
    // messages quote ("0 is out of range; allowed 1..64").
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
    compiled = ajv.compile(schema);
  }
  return compiled;
}

/** Validates an already-parsed scenario. */
export function checkScenarioValue(value: unknown): ScenarioCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return { ok: false, value, issues: [{ path: '(top level)', message: `expected a JSON object, got ${got}` }] };
  }
  const validate = validator();
  if (validate(value)) return { ok: true, value: value as Record<string, unknown>, issues: [] };
  const issues = formatSchemaErrors(validate.errors, value);
  return { ok: false, value, issues };
}

/** Parses and validates scenario text: JSON syntax, size cap, then the schema. */
export function checkScenarioText(text: string): ScenarioCheck {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_SCENARIO_BYTES) {
    return {
      ok: false,
      value: undefined,
      issues: [{ path: '(file)', message: `the scenario is ${Math.round(bytes / 1024)} KiB; the limit is ${MAX_SCENARIO_BYTES / 1024} KiB` }],
    };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, value: undefined, issues: [parsed.issue] };
  return checkScenarioValue(parsed.value);
}
