import { useCallback, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { exportPng, exportSvg } from './chartExport';

export interface ChartPanelProps {
  /** Card title; also the base of export file names and button labels. */
  title: string;
  /** Units or context, shown muted after the title ("IOPS and MB/s per interval"). */
  subtitle?: string;
  /** Plain-language explanation shown by the ⓘ toggle; blank lines separate paragraphs. */
  help?: string;
  /** File name base for exports (default: title). */
  exportName?: string;
  /** Hide the SVG / PNG export buttons. */
  noExport?: boolean;
  /** Extra header controls, placed before the export buttons. */
  actions?: ReactNode;
  /** Start with the explanation open. */
  defaultHelpOpen?: boolean;
  className?: string;
  id?: string;
  children: ReactNode;
}

/**
 * A titled dashboard card around one view: title, subtitle, an ⓘ toggle for the
 * view's explanation, and SVG / PNG export of the view inside it (the body's
 * first <svg>; for PNG the first <canvas> if there is one, else the <svg>).
 */
export function ChartPanel(props: ChartPanelProps) {
  const { title, subtitle, help, exportName, noExport, actions, defaultHelpOpen, className, id, children } = props;
  const [helpOpen, setHelpOpen] = useState(defaultHelpOpen ?? false);
  const [targets, setTargets] = useState({ svg: false, png: false });
  const [error, setError] = useState('');
  const bodyRef = useRef<HTMLDivElement>(null);
  const helpId = useId();
  const titleId = useId();
  const name = exportName ?? title;

  // Which exports the current body supports (its children may switch between
  // an empty state and a chart).
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const svg = body.querySelector('svg') !== null;
    const png = svg || body.querySelector('canvas') !== null;
    setTargets((t) => (t.svg === svg && t.png === png ? t : { svg, png }));
  });

  const onSvg = useCallback(() => {
    const svg = bodyRef.current?.querySelector('svg');
    if (!svg) return;
    try {
      exportSvg(svg, name);
      setError('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  }, [name]);

  const onPng = useCallback(() => {
    const body = bodyRef.current;
    const el = body?.querySelector('canvas') ?? body?.querySelector('svg');
    if (!el) return;
    exportPng(el, name).then(
      () => setError(''),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [name]);

  return (
    <section className={`v-panel${className ? ` ${className}` : ''}`} aria-labelledby={titleId} id={id}>
      <header className="v-panel__head">
        <h3 className="v-panel__title" id={titleId}>
          {title}
        </h3>
        {subtitle ? <span className="v-panel__subtitle">{subtitle}</span> : null}
        <div className="v-panel__actions">
          {actions}
          {help ? (
            <button
              type="button"
              className="v-btn v-btn--icon"
              aria-expanded={helpOpen}
              aria-controls={helpOpen ? helpId : undefined}
              aria-label={`About ${title}`}
              title="What am I looking at?"
              onClick={() => setHelpOpen((o) => !o)}
            >
              {/* ⓘ drawn with CSS: the U+24D8 glyph is missing from many fonts. */}
              <span className="v-info" aria-hidden="true">
                i
              </span>
            </button>
          ) : null}
          {noExport ? null : (
            <>
              <button
                type="button"
                className="v-btn"
                aria-label={`Export ${title} as SVG`}
                title="Download as SVG (vector)"
                disabled={!targets.svg}
                onClick={onSvg}
              >
                SVG
              </button>
              <button
                type="button"
                className="v-btn"
                aria-label={`Export ${title} as PNG`}
                title="Download as PNG (image)"
                disabled={!targets.png}
                onClick={onPng}
              >
                PNG
              </button>
            </>
          )}
        </div>
      </header>
      {help && helpOpen ? (
        <div className="v-panel__help" id={helpId} role="note">
          {help.split(/\n\s*\n/).map((para, i) => (
            <p key={i}>{para.trim()}</p>
          ))}
        </div>
      ) : null}
      {error ? (
        <p className="v-bm__note" role="alert">
          Export failed: {error}
        </p>
      ) : null}
      <div className="v-panel__body" ref={bodyRef}>
        {children}
      </div>
    </section>
  );
}
