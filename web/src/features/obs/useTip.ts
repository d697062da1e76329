// Hover tooltips for the analysis charts: any SVG element with a data-tip
// attribute shows that text in the view's .v-tooltip box (DOM-dependent).
import { useCallback, useRef, type PointerEvent } from 'react';
import { placeTooltip } from '../../views/svgUtil';

/** Refs and handlers for a chart wrapper (position: relative) holding a .v-tooltip div. */
export function useTip() {
  const wrapRef = useRef<HTMLDivElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const onPointerMove = useCallback((ev: PointerEvent<Element>) => {
    const tip = tipRef.current;
    const wrap = wrapRef.current;
    if (!tip || !wrap) return;
    const el = (ev.target as Element).closest?.('[data-tip]');
    const text = el?.getAttribute('data-tip');
    if (!text) {
      tip.hidden = true;
      return;
    }
    tip.textContent = text;
    tip.hidden = false;
    const r = wrap.getBoundingClientRect();
    placeTooltip(tip, ev.clientX - r.left, ev.clientY - r.top, r.width, r.height);
  }, []);
  const onPointerLeave = useCallback(() => {
    if (tipRef.current) tipRef.current.hidden = true;
  }, []);
  return { wrapRef, tipRef, onPointerMove, onPointerLeave };
}
