// Palettes for the views. Categorical colours follow the Okabe–Ito palette
// (distinguishable with the common colour-vision deficiencies), with a lighter
// variant for the dark theme. The same values are declared as CSS variables in
// views.css (a unit test keeps the two in step): SVG reads the variables,
// canvas code resolves them at draw time (see resolveCssColor).

import { color as d3color, interpolateViridis, interpolateYlOrRd } from 'd3';

export interface ThemedColor {
  /** CSS custom property holding the colour (defined in views.css). */
  cssVar: string;
  light: string;
  dark: string;
  /** Legend text. */
  label: string;
}

/** Die states in the order of EnumNames.die_states (core DieState). */
export const DIE_STATES = ['idle', 'read', 'program', 'erase', 'transfer', 'wait_bus'] as const;
export type DieStateName = (typeof DIE_STATES)[number];

export const DIE_STATE_COLORS: Record<DieStateName, ThemedColor> = {
  idle: { cssVar: '--v-die-idle', light: '#e4e8ed', dark: '#2a313b', label: 'idle' },
  read: { cssVar: '--v-die-read', light: '#0072b2', dark: '#56b4e9', label: 'read (array)' },
  program: { cssVar: '--v-die-program', light: '#e69f00', dark: '#e69f00', label: 'program' },
  erase: { cssVar: '--v-die-erase', light: '#d55e00', dark: '#f0783c', label: 'erase' },
  transfer: { cssVar: '--v-die-transfer', light: '#009e73', dark: '#2ec4a0', label: 'bus transfer' },
  wait_bus: { cssVar: '--v-die-wait-bus', light: '#cc79a7', dark: '#e08fc0', label: 'waiting for bus' },
};

/** Flash op kinds counted in Frame.dieOps, in order: read, program, erase, copyback. */
export const OP_KINDS = ['read', 'program', 'erase', 'copyback'] as const;
export type OpKindName = (typeof OP_KINDS)[number];

export const OP_COLORS: Record<OpKindName, ThemedColor> = {
  read: { cssVar: '--v-die-read', light: '#0072b2', dark: '#56b4e9', label: 'read' },
  program: { cssVar: '--v-die-program', light: '#e69f00', dark: '#e69f00', label: 'program' },
  erase: { cssVar: '--v-die-erase', light: '#d55e00', dark: '#f0783c', label: 'erase' },
  copyback: { cssVar: '--v-op-copyback', light: '#6e56cf', dark: '#a594f9', label: 'copyback' },
};

/** Block states in the order of EnumNames.block_states (core BlockState). */
export const BLOCK_STATES = ['free', 'open', 'full', 'victim', 'retiring', 'bad'] as const;
export type BlockStateName = (typeof BLOCK_STATES)[number];

export const BLOCK_STATE_COLORS: Record<BlockStateName, ThemedColor> = {
  free: { cssVar: '--v-block-free', light: '#e9edf1', dark: '#252b33', label: 'free (erased)' },
  open: { cssVar: '--v-block-open', light: '#009e73', dark: '#2ec4a0', label: 'open (being written)' },
  full: { cssVar: '--v-block-full', light: '#8fa6bd', dark: '#52677e', label: 'full' },
  victim: { cssVar: '--v-block-victim', light: '#e69f00', dark: '#f0b43c', label: 'GC victim' },
  retiring: { cssVar: '--v-block-retiring', light: '#cc79a7', dark: '#e08fc0', label: 'retiring' },
  bad: { cssVar: '--v-block-bad', light: '#b3261e', dark: '#ff6b5e', label: 'bad (retired)' },
};

/** Marks drawn over block cells. */
export const BLOCK_MARKS = {
  victimOutline: { cssVar: '--v-block-victim-mark', light: '#111418', dark: '#ffffff', label: 'GC victim now' },
  openMark: { cssVar: '--v-block-open-mark', light: '#ffffff', dark: '#0f1216', label: 'open block' },
} as const satisfies Record<string, ThemedColor>;

/** Series colours for the line charts. */
export const SERIES_COLORS = {
  read: { cssVar: '--v-series-read', light: '#0072b2', dark: '#56b4e9', label: 'read' },
  write: { cssVar: '--v-series-write', light: '#d55e00', dark: '#f0a040', label: 'write' },
  iops: { cssVar: '--v-series-iops', light: '#0072b2', dark: '#56b4e9', label: 'IOPS' },
  mbps: { cssVar: '--v-series-mbps', light: '#009e73', dark: '#2ec4a0', label: 'MB/s' },
} as const satisfies Record<string, ThemedColor>;

/** Timeline event colours. */
export const TIMELINE_COLORS = {
  gc: { cssVar: '--v-tl-gc', light: '#0072b2', dark: '#56b4e9', label: 'garbage collection' },
  erase: { cssVar: '--v-tl-erase', light: '#d55e00', dark: '#f0783c', label: 'erase' },
  block_retired: { cssVar: '--v-tl-retired', light: '#b3261e', dark: '#ff6b5e', label: 'block retired' },
  wear_level: { cssVar: '--v-tl-wear', light: '#6e56cf', dark: '#a594f9', label: 'wear leveling' },
  checkpoint: { cssVar: '--v-tl-checkpoint', light: '#009e73', dark: '#2ec4a0', label: 'checkpoint' },
  power_fail: { cssVar: '--v-tl-power', light: '#b3261e', dark: '#ff6b5e', label: 'power failure' },
  recovery_step: { cssVar: '--v-tl-recovery', light: '#e69f00', dark: '#e6a817', label: 'recovery step' },
} as const satisfies Record<string, ThemedColor>;

/** Every themed colour, for the views.css consistency test. */
export function allThemedColors(): ThemedColor[] {
  return [
    ...Object.values(DIE_STATE_COLORS),
    ...Object.values(OP_COLORS),
    ...Object.values(BLOCK_STATE_COLORS),
    ...Object.values(BLOCK_MARKS),
    ...Object.values(SERIES_COLORS),
    ...Object.values(TIMELINE_COLORS),
  ];
}

/** The die-state key for a state index, tolerant of unknown values. */
export function dieStateName(index: number, names: readonly string[]): string {
  return names[index] ?? DIE_STATES[index] ?? 'idle';
}

// ----- sequential scales for the block map -----

/** Valid-page ratio (0..1) → colour: viridis (dark purple = no valid data, yellow = all valid). */
export function validColor(ratio: number): string {
  return interpolateViridis(clamp01(ratio));
}

/** Erase wear (0..1 of the current min..max range) → colour: pale yellow → dark red. */
export function eraseColor(t: number): string {
  return interpolateYlOrRd(0.08 + 0.92 * clamp01(t));
}

/**
 * The erase-count domain for the colour scale: min and max over blocks that
 * are not bad (state index 5), widened to at least one erase so a fresh device
 * (all zero) has a usable scale.
 */
export function eraseDomain(words: Uint32Array, badState = 5): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i + 3 < words.length; i += 4) {
    if (words[i + 2] === badState) continue;
    const e = words[i + 1]!;
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (hi <= lo) return [lo, lo + 1];
  return [lo, hi];
}

/**
 * A 256-entry colour lookup table packed as little-endian RGBA words
 * (what a Uint32Array view over ImageData.data expects on every browser).
 */
export function buildLut(fn: (t: number) => string, n = 256): Uint32Array {
  const lut = new Uint32Array(n);
  for (let i = 0; i < n; i++) lut[i] = packColor(fn(n === 1 ? 0 : i / (n - 1)));
  return lut;
}

/** Any CSS colour d3 understands → 0xAABBGGRR. Unparseable colours give opaque magenta. */
export function packColor(css: string): number {
  const c = d3color(css)?.rgb();
  if (!c) return packRgba(255, 0, 255, 255);
  return packRgba(c.r, c.g, c.b, Math.round((c.opacity ?? 1) * 255));
}

export function packRgba(r: number, g: number, b: number, a: number): number {
  return ((a & 255) << 24 | (b & 255) << 16 | (g & 255) << 8 | (r & 255)) >>> 0;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : Number.isFinite(x) ? x : 0;
}

/**
 * The current value of a themed colour on element el (walks the cascade so the
 * nearest data-theme wins); falls back to the light or dark default.
 */
export function resolveCssColor(el: Element, c: ThemedColor): string {
  const v = getComputedStyle(el).getPropertyValue(c.cssVar).trim();
  if (v) return v;
  const dark = el.closest('[data-theme="dark"]') !== null;
  return dark ? c.dark : c.light;
}

/** The current value of any --v- variable on el, or fallback. */
export function resolveCssVar(el: Element, name: string, fallback: string): string {
  const v = getComputedStyle(el).getPropertyValue(name).trim();
  return v || fallback;
}
