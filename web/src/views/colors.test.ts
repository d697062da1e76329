import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_STATES,
  BLOCK_STATE_COLORS,
  DIE_STATES,
  DIE_STATE_COLORS,
  allThemedColors,
  buildLut,
  dieStateName,
  eraseDomain,
  packColor,
  packRgba,
} from './colors';
import { FAKE_NAMES } from './fixtures';

const css = readFileSync(new URL('./views.css', import.meta.url), 'utf8');

/** The --v- declarations inside the first rule whose selector matches. */
function declarations(selectorRe: RegExp): Map<string, string> {
  const m = selectorRe.exec(css);
  if (!m) throw new Error(`no rule for ${selectorRe}`);
  const open = css.indexOf('{', m.index + m[0].length - 1);
  const close = css.indexOf('}', open);
  const out = new Map<string, string>();
  for (const d of css.slice(open + 1, close).matchAll(/(--v-[\w-]+)\s*:\s*([^;]+);/g)) out.set(d[1]!, d[2]!.trim().toLowerCase());
  return out;
}

const light = declarations(/:root,\s*\[data-theme='light'\]\s*\{/);
const dark = declarations(/\n\[data-theme='dark'\]\s*\{/);

describe('views.css and colors.ts agree', () => {
  it('declares every themed colour with the same light and dark values', () => {
    for (const c of allThemedColors()) {
      expect(light.get(c.cssVar), `${c.cssVar} light`).toBe(c.light);
      expect(dark.get(c.cssVar), `${c.cssVar} dark`).toBe(c.dark);
    }
  });

  it('writes each theme once: the page resolves "follow the system" before its first paint', () => {
    expect(css.match(/\[data-theme='dark'\]\s*\{/g)).toHaveLength(1);
    expect(css).not.toContain('prefers-color-scheme');
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain("matchMedia('(prefers-color-scheme: dark)')");
    expect(head).toContain("setAttribute('data-theme'");
  });

  it('defines every variable in both themes', () => {
    expect([...dark.keys()].sort()).toEqual([...light.keys()].sort());
    for (const name of css.matchAll(/var\((--v-[\w-]+)\)/g)) {
      expect(light.has(name[1]!), `${name[1]} used but not defined`).toBe(true);
    }
  });
});

describe('palettes', () => {
  it('follow the enum orders the model reports', () => {
    expect([...DIE_STATES]).toEqual(FAKE_NAMES.die_states);
    expect([...BLOCK_STATES]).toEqual(FAKE_NAMES.block_states);
  });

  it('use distinct colours within each palette and theme', () => {
    for (const pal of [DIE_STATE_COLORS, BLOCK_STATE_COLORS]) {
      const values = Object.values(pal);
      expect(new Set(values.map((c) => c.light)).size).toBe(values.length);
      expect(new Set(values.map((c) => c.dark)).size).toBe(values.length);
    }
  });

  it('names unknown die states safely', () => {
    expect(dieStateName(2, FAKE_NAMES.die_states)).toBe('program');
    expect(dieStateName(5, [])).toBe('wait_bus');
    expect(dieStateName(99, [])).toBe('idle');
  });
});

describe('eraseDomain', () => {
  it('spans min..max over blocks that are not bad', () => {
    const words = new Uint32Array([
      0, 5, 2, 0, //
      0, 9, 2, 0, //
      0, 500, 5, 0, // bad: ignored
      0, 3, 0, 0,
    ]);
    expect(eraseDomain(words)).toEqual([3, 9]);
  });
  it('widens a flat or empty domain to one erase', () => {
    expect(eraseDomain(new Uint32Array([0, 4, 2, 0, 0, 4, 2, 0]))).toEqual([4, 5]);
    expect(eraseDomain(new Uint32Array(0))).toEqual([0, 1]);
  });
});

describe('colour packing', () => {
  it('packs RGBA little-endian for ImageData', () => {
    expect(packRgba(1, 2, 3, 255)).toBe(0xff030201);
    expect(packColor('#0072b2')).toBe(0xffb27200);
    expect(packColor('rgb(255, 0, 0)')).toBe(0xff0000ff);
    expect(packColor('not a colour')).toBe(packRgba(255, 0, 255, 255));
  });
  it('builds a lookup table across the scale', () => {
    const lut = buildLut((t) => `rgb(${Math.round(t * 255)}, 0, 0)`, 256);
    expect(lut).toHaveLength(256);
    expect(lut[0]).toBe(packRgba(0, 0, 0, 255));
    expect(lut[255]).toBe(packRgba(255, 0, 0, 255));
  });
});
