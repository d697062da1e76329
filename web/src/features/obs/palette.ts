// Colours of the analysis views. Every colour is a CSS variable, so the views
// follow the light / dark theme: flows use --obs-flow-N (obs.css, Okabe–Ito
// with lighter variants for the dark theme), flash ops and GC classes reuse
// the dashboard's --v- variables so a program, an erase or a GC copy has the
// same colour here as on the floor plan and the event timeline.
import type { PurposeGroup } from './schedule';

/** Okabe–Ito (light theme values; obs.css holds the dark ones): distinguishable for colour-blind readers. */
export const FLOW_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#c9b800', '#8a8a8a'];

/** A flow's colour as a CSS value that follows the theme. */
export function flowColor(flow: number): string {
  const i = ((flow % FLOW_COLORS.length) + FLOW_COLORS.length) % FLOW_COLORS.length;
  return `var(--obs-flow-${i}, ${FLOW_COLORS[i]})`;
}

/** Gantt colours and legend labels per op purpose group. */
export const PURPOSE_STYLE: Record<PurposeGroup, { color: string; label: string }> = {
  host_read: { color: 'var(--v-die-read)', label: 'host read' },
  rmw_read: { color: 'var(--v-die-wait-bus)', label: 'read-modify-write read' },
  flush: { color: 'var(--v-die-program)', label: 'flush (buffered host write)' },
  gc_copy: { color: 'var(--v-op-copyback)', label: 'GC copy (read, program, copyback)' },
  gc_erase: { color: 'var(--v-die-erase)', label: 'GC erase' },
  checkpoint: { color: 'var(--v-tl-checkpoint)', label: 'mapping checkpoint' },
  other: { color: 'var(--v-axis)', label: 'other' },
};

/** The two GC classes of the instrumented-SSD paper. */
export const GC_CLASS_STYLE = {
  eraseOnly: { color: 'var(--v-die-erase)', label: 'erase only' },
  copyThenErase: { color: 'var(--v-op-copyback)', label: 'copy then erase' },
} as const;

/** Stages of a request, as in the explanation's stacked bars. */
export const STAGE_COLORS: Record<string, string> = {
  fetch: 'var(--obs-stage-fetch)',
  translate: 'var(--obs-stage-translate)',
  buffer_wait: 'var(--obs-stage-buffer-wait)',
  flash: 'var(--obs-stage-flash)',
  transfer: 'var(--obs-stage-transfer)',
  completion: 'var(--obs-stage-completion)',
};
