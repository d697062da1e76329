// The shipped scenarios, inlined at build time by Vite (eager JSON import).
// Untrusted like any input: the page validates before it runs one.
import { buildLibrary, DEFAULT_SCENARIO_PATH, findEntry, type LibraryEntry } from './library';

const modules = import.meta.glob<unknown>(['../../../scenarios/**/*.json', '!../../../scenarios/schema.json'], {
  eager: true,
  import: 'default',
});

export const library = buildLibrary(modules);

/** The scenario the page opens with, or undefined if the file was missing at build time. */
export const defaultEntry: LibraryEntry | undefined =
  findEntry(library, DEFAULT_SCENARIO_PATH) ?? library[0]?.entries[0];
