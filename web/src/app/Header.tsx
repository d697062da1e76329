// The header: product name, the running scenario, and the page-level actions
// (scenario library, share, exports, theme, help).
import { useCallback, useRef, useState } from 'react';
import { ExportMenu } from '../exports/ExportMenu';
import { encodeScenario, shareUrl } from '../scenarios/share';
import type { Playground } from './playground';
import { useDismiss, usePg } from './hooks';
import type { Theme, ThemeChoice } from './theme';
import { nextThemeChoice } from './theme';

const THEME_LABEL: Record<ThemeChoice, string> = { light: 'Light', dark: 'Dark', system: 'System' };
const THEME_ICON: Record<ThemeChoice, string> = { light: '☀', dark: '☾', system: '◐' };

export interface HeaderProps {
  pg: Playground;
  themeChoice: ThemeChoice;
  theme: Theme;
  onTheme: (c: ThemeChoice) => void;
  onScenarios: () => void;
  onHelp: () => void;
}

export function Header({ pg, themeChoice, theme, onTheme, onScenarios, onHelp }: HeaderProps) {
  const scenario = usePg(pg, (s) => s.scenario);
  const device = usePg(pg, (s) => s.device);
  const source = scenario?.source;
  const origin =
    source?.kind === 'library'
      ? source.path
      : source?.kind === 'link'
        ? 'from a share link'
        : source?.kind === 'file'
          ? source.name
          : source?.kind === 'editor'
            ? 'edited'
            : '';

  return (
    <header className="topbar">
      <h1 className="brand">
        <svg className="brand__mark" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="1.5" y="3" width="13" height="10" rx="1.5" />
          <rect x="4" y="5.5" width="3" height="2" />
          <rect x="9" y="5.5" width="3" height="2" />
          <rect x="4" y="8.5" width="3" height="2" />
          <rect x="9" y="8.5" width="3" height="2" />
        </svg>
        SSD Playground
      </h1>
      <div className="scenario-info">
        <button
          type="button"
          className="scenario-info__title"
          onClick={onScenarios}
          title={`${scenario?.description ? `${scenario.description}\n\n` : ''}Click for the scenario library and editor (L).`}
        >
          <span data-testid="scenario-title">{scenario?.title ?? '…'}</span>
          <span className="scenario-info__caret" aria-hidden="true">
            ▾
          </span>
        </button>
        <span className="scenario-info__meta">
          {origin ? <span className="scenario-info__origin">{origin}</span> : null}
          {device ? (
            <span title="Channels × dies per channel, cell type">
              {device.channels}×{device.ways_per_channel} {device.cell_type} · {device.blocks} blocks ×{' '}
              {device.pages_per_block} pages · {Math.round(device.page_bytes / 1024)} KiB pages
            </span>
          ) : null}
        </span>
        {/* Full description for screen readers and tests; shown in the library. */}
        <span className="sr-only" data-testid="scenario-description">
          {scenario?.description ?? ''}
        </span>
      </div>
      <nav className="topbar__actions" aria-label="Page actions">
        <button type="button" className="btn" data-testid="open-scenarios" onClick={onScenarios} title="Scenario library and editor (L)">
          Scenarios
        </button>
        <ShareButton pg={pg} />
        <ExportMenu pg={pg} />
        <button
          type="button"
          className="btn btn--icon"
          data-testid="theme-toggle"
          data-theme-choice={themeChoice}
          aria-label={`Theme: ${THEME_LABEL[themeChoice]}${themeChoice === 'system' ? ` (${theme})` : ''}. Switch to ${THEME_LABEL[nextThemeChoice(themeChoice)]}`}
          title={`Theme: ${THEME_LABEL[themeChoice]}${themeChoice === 'system' ? ` (${theme})` : ''} — click for ${THEME_LABEL[nextThemeChoice(themeChoice)]}`}
          onClick={() => onTheme(nextThemeChoice(themeChoice))}
        >
          <span aria-hidden="true">{THEME_ICON[themeChoice]}</span>
        </button>
        <button type="button" className="btn btn--icon" data-testid="help-button" aria-label="Keyboard shortcuts and help (?)" title="Help and shortcuts (?)" onClick={onHelp}>
          ?
        </button>
      </nav>
    </header>
  );
}

/** Share: a link carrying the running scenario, compressed into the URL fragment. */
function ShareButton({ pg }: { pg: Playground }) {
  const scenario = usePg(pg, (s) => s.scenario);
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState('');
  const [error, setError] = useState('');
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, boxRef);

  const share = () => {
    if (!scenario) return;
    const enc = encodeScenario(scenario.text);
    setCopied(false);
    if (!enc.ok) {
      setError(`No link: ${enc.error}.`);
      setLink('');
      setOpen(true);
      return;
    }
    const url = shareUrl(window.location.href, enc.payload);
    setError('');
    setLink(url);
    setOpen(true);
    // The address bar shows the link too; replaceState fires no hashchange.
    history.replaceState(null, '', url);
    navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
    requestAnimationFrame(() => inputRef.current?.select());
  };

  return (
    <div className="popover-anchor" ref={boxRef}>
      <button
        type="button"
        className="btn"
        data-testid="share"
        disabled={!scenario}
        aria-expanded={open}
        onClick={() => (open ? setOpen(false) : share())}
        title="Copy a link that carries this whole scenario"
      >
        Share
      </button>
      {open ? (
        <div className="popover popover--share" role="dialog" aria-label="Share link">
          {error ? (
            <p className="popover__error">{error}</p>
          ) : (
            <>
              <label className="popover__label" htmlFor="share-link">
                {copied ? 'Link copied to the clipboard.' : 'Copy this link:'} It carries the whole scenario ({link.length.toLocaleString('en-US')} characters); opening it
                runs the same scenario with the same seed.
              </label>
              <div className="popover__row">
                <input
                  id="share-link"
                  ref={inputRef}
                  className="input input--mono"
                  data-testid="share-link"
                  readOnly
                  value={link}
                  onFocus={(e) => e.currentTarget.select()}
                />
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    inputRef.current?.select();
                    navigator.clipboard?.writeText(link).then(
                      () => setCopied(true),
                      () => document.execCommand?.('copy'),
                    );
                  }}
                >
                  Copy
                </button>
              </div>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
