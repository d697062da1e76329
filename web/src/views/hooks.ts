// Small React hooks shared by the views (DOM-dependent: not unit-tested).

import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The content-box width of ref's element in CSS pixels, kept current with a
 * ResizeObserver (rounded, so sub-pixel jitter does not redraw).
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback = 600): number {
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const measure = () => {
      const w = Math.round(el.getBoundingClientRect().width);
      if (w > 0) setWidth((old) => (old === w ? old : w));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

/**
 * A counter that changes whenever the effective colour theme may have
 * changed: a data-theme attribute anywhere on the page, or the system
 * preference. Canvas views include it in their redraw dependencies (SVG views
 * need nothing: CSS variables restyle them).
 */
export function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const mo = new MutationObserver(bump);
    mo.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
      subtree: true,
    });
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    mq?.addEventListener?.('change', bump);
    return () => {
      mo.disconnect();
      mq?.removeEventListener?.('change', bump);
    };
  }, []);
  return version;
}

/** window.devicePixelRatio, at least 1. */
export function devicePixelRatio(): number {
  return Math.max(1, typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1);
}
