// The default scenario, inlined into the bundle at build time by Vite's JSON import.
//
// A static eager glob is used instead of a plain `import ... from '.../default.json'`
// so that a missing file is not a build error: the glob then matches nothing and the
// page says so, instead of the whole site failing to build.
const modules = import.meta.glob<unknown>('../../../scenarios/basics/default.json', {
  eager: true,
  import: 'default',
});

/** Repository-relative path, as users pass it to the CLI. */
export const DEFAULT_SCENARIO_PATH = 'scenarios/basics/default.json';

/** The parsed JSON, or undefined when the file does not exist. Untrusted: validate before use. */
export const defaultScenario: unknown = Object.values(modules)[0];
