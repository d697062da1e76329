// Chart export: a view's <svg> as a standalone SVG file (every style resolved
// to concrete values, CSS variables included, over a solid background) or as a
// PNG; a <canvas> as a PNG. The DOM functions run only on user action; the
// pure helpers at the top are unit-tested.

import { downloadBlob } from '../exports/download';

/** Presentation properties copied from the computed style onto each exported element. */
export const EXPORT_STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'visibility',
  'display',
  'shape-rendering',
  'paint-order',
] as const;

/**
 * A safe download name: "Latency CDF (µs)" + "svg" → "latency-cdf-us.svg".
 * Keeps an extension already present; never empty.
 */
export function exportFilename(name: string, ext: 'svg' | 'png'): string {
  const lower = name.trim().toLowerCase();
  const withoutExt = lower.endsWith(`.${ext}`) ? lower.slice(0, -(ext.length + 1)) : lower;
  const slug = withoutExt
    .replace(/[\u00b5\u03bc]/g, 'u')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${slug || 'chart'}.${ext}`;
}

/** Pixel size of the PNG for a css-size element at a scale, capped to what canvases allow. */
export function pngSize(cssW: number, cssH: number, scale: number, maxSide = 8192): { w: number; h: number } {
  const s = Math.max(0.1, scale);
  let w = Math.max(1, Math.round(cssW * s));
  let h = Math.max(1, Math.round(cssH * s));
  const over = Math.max(w / maxSide, h / maxSide, 1);
  w = Math.max(1, Math.floor(w / over));
  h = Math.max(1, Math.floor(h / over));
  return { w, h };
}

// ------------------------------------------------------------------ DOM side

/** Background colour for exports: the nearest --v-surface, else white. */
function backgroundOf(el: Element): string {
  const v = getComputedStyle(el).getPropertyValue('--v-surface').trim();
  return v || '#ffffff';
}

function svgSize(svg: SVGSVGElement): { w: number; h: number; x: number; y: number } {
  const vb = svg.viewBox?.baseVal;
  const rect = svg.getBoundingClientRect();
  if (vb && vb.width > 0 && vb.height > 0) return { w: vb.width, h: vb.height, x: vb.x, y: vb.y };
  return { w: Math.max(1, rect.width), h: Math.max(1, rect.height), x: 0, y: 0 };
}

/**
 * Serializes svg as a standalone document: computed styles inlined on every
 * element (so CSS variables and stylesheet rules become concrete values), a
 * background rect, explicit width/height, the SVG namespace.
 */
export function standaloneSvg(svg: SVGSVGElement): { text: string; width: number; height: number } {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg as Element, ...Array.from(svg.querySelectorAll('*'))];
  const dst = [clone as Element, ...Array.from(clone.querySelectorAll('*'))];
  for (let i = 0; i < src.length && i < dst.length; i++) {
    const s = src[i]!;
    const d = dst[i]! as SVGElement;
    const cs = getComputedStyle(s);
    const parts: string[] = [];
    for (const p of EXPORT_STYLE_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v) parts.push(`${p}:${v}`);
    }
    d.setAttribute('style', parts.join(';'));
    d.removeAttribute('class');
  }
  // Remove interaction-only parts (hover rules, tooltips, pointer overlays).
  for (const el of Array.from(clone.querySelectorAll('[data-export="skip"]'))) el.remove();

  const { w, h, x, y } = svgSize(svg);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('xmlns:xlink', 'http://www.w3.org/1999/xlink');
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  if (!clone.getAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${w} ${h}`);
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('x', String(x));
  bg.setAttribute('y', String(y));
  bg.setAttribute('width', String(w));
  bg.setAttribute('height', String(h));
  bg.setAttribute('fill', backgroundOf(svg));
  clone.insertBefore(bg, clone.firstChild);
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
  return { text, width: w, height: h };
}

// One download helper for the whole app (exports/download.ts).
export { downloadBlob };

/** Downloads svg as a standalone .svg file. */
export function exportSvg(svg: SVGSVGElement, filename: string): void {
  const { text } = standaloneSvg(svg);
  downloadBlob(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }), exportFilename(filename, 'svg'));
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('could not render the chart as an image'));
    img.src = url;
  });
}

function canvasToBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png');
  });
}

/** Renders el (an SVG chart or a canvas) to a PNG at `scale` × its CSS size and downloads it. */
export async function exportPng(
  el: SVGSVGElement | HTMLCanvasElement,
  filename: string,
  scale = 2,
): Promise<void> {
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('canvas 2D context unavailable');
  const background = backgroundOf(el);
  if (el instanceof HTMLCanvasElement) {
    const r = el.getBoundingClientRect();
    const cssW = r.width || el.width;
    const cssH = r.height || el.height;
    const { w, h } = pngSize(cssW, cssH, scale);
    out.width = w;
    out.height = h;
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, w, h);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(el, 0, 0, w, h);
  } else {
    const { text, width, height } = standaloneSvg(el);
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }));
    try {
      const img = await loadImage(url);
      const { w, h } = pngSize(width, height, scale);
      out.width = w;
      out.height = h;
      ctx.fillStyle = background;
      ctx.fillRect(0, 0, w, h);
      ctx.drawImage(img, 0, 0, w, h);
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  downloadBlob(await canvasToBlob(out), exportFilename(filename, 'png'));
}
