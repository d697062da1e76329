import { describe, expect, it } from 'vitest';
import { buildLibrary, findEntry, slugify } from './library';

describe('buildLibrary', () => {
  const modules = {
    '../../../scenarios/txn/abort.json': { title: 'Aborts', description: 'Tx  aborts' },
    '../../../scenarios/basics/zeta.json': { title: 'Zeta' },
    '../../../scenarios/basics/default.json': { title: ' Default\n device ', description: 'The first one.' },
    '../../../scenarios/basics/alpha.json': { description: 'no title' },
    '../../../scenarios/schema.json': { title: 'SSD Playground scenario' },
    '../../../scenarios/basics/broken.json': [1, 2],
  };
  const groups = buildLibrary(modules);

  it('groups by topic folder, basics first, default first, schema excluded', () => {
    expect(groups.map((g) => g.topic)).toEqual(['basics', 'txn']);
    expect(groups[0]!.entries.map((e) => e.name)).toEqual(['default', 'alpha', 'zeta']);
  });

  it('normalises titles and falls back to the file name', () => {
    const def = findEntry(groups, 'scenarios/basics/default.json');
    expect(def?.title).toBe('Default device');
    expect(def?.description).toBe('The first one.');
    expect(findEntry(groups, 'scenarios/basics/alpha.json')?.title).toBe('alpha');
    expect(findEntry(groups, 'scenarios/txn/abort.json')?.description).toBe('Tx aborts');
    expect(findEntry(groups, 'scenarios/schema.json')).toBeUndefined();
  });

  it('keeps the scenario as pretty JSON', () => {
    expect(JSON.parse(findEntry(groups, 'scenarios/txn/abort.json')!.json)).toEqual(modules['../../../scenarios/txn/abort.json']);
  });
});

describe('slugify', () => {
  it.each([
    ['A small MLC SSD under random 4 KiB I/O', 'a-small-mlc-ssd-under-random-4-kib-i-o'],
    ['Über — façade', 'uber-facade'],
    ['***', 'scenario'],
  ])('%s → %s', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });
});
