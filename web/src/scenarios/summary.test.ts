import { describe, expect, it } from 'vitest';
import { normalizeText, oneLineSummary, summarizeScenario } from './summary';

describe('summarizeScenario', () => {
  it('extracts title and description and pretty-prints the JSON', () => {
    const raw = { title: 'Default device', description: 'A small TLC drive.', seed: 1 };
    const result = summarizeScenario(raw);
    expect(result).toEqual({
      ok: true,
      summary: {
        title: 'Default device',
        description: 'A small TLC drive.',
        json: '{\n  "title": "Default device",\n  "description": "A small TLC drive.",\n  "seed": 1\n}',
      },
    });
  });

  it('normalizes whitespace in the text fields', () => {
    const result = summarizeScenario({ title: '  Two\n words ', description: 'a\t\tb' });
    expect(result.ok && result.summary.title).toBe('Two words');
    expect(result.ok && result.summary.description).toBe('a b');
  });

  it.each([
    [null, 'scenario must be a JSON object, got null'],
    [[1, 2], 'scenario must be a JSON object, got array'],
    ['text', 'scenario must be a JSON object, got string'],
    [{ description: 'd' }, '"title" is missing'],
    [{ title: 42, description: 'd' }, '"title" must be a string, got number'],
    [{ title: 't', description: '   ' }, '"description" must not be empty'],
  ])('rejects %j with an error naming the field', (raw, error) => {
    expect(summarizeScenario(raw)).toEqual({ ok: false, error });
  });
});

describe('oneLineSummary', () => {
  it('joins title and description when short enough', () => {
    expect(oneLineSummary({ title: 'T', description: 'Short.' })).toBe('T: Short.');
  });

  it('cuts long text at a word boundary and adds an ellipsis', () => {
    const line = oneLineSummary({ title: 'GC', description: 'greedy victim selection under load' }, 24);
    expect(line).toBe('GC: greedy victim…');
    expect(line.length).toBeLessThanOrEqual(24);
  });

  it('never returns more than maxLength characters', () => {
    const line = oneLineSummary({ title: 'Averyveryverylongtitle', description: 'x' }, 10);
    expect(line.length).toBeLessThanOrEqual(10);
    expect(line.endsWith('…')).toBe(true);
  });
});

describe('normalizeText', () => {
  it('collapses all whitespace', () => {
    expect(normalizeText('\n a \r\n b\t')).toBe('a b');
  });
});
