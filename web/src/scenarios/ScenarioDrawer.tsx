// The scenario drawer: the library (shipped scenarios grouped by topic) and
// the editor (JSON text validated live against scenarios/schema.json; the
// model's own verdict when applied; open and save files).
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { Playground } from '../app/playground';
import { applyScenarioText, clearShareHash, loadEntry } from '../app/boot';
import { usePg } from '../app/hooks';
import { downloadText } from '../exports/download';
import { library } from './catalog';
import { slugify } from './library';
import {
  lineColumn,
  locateInJson,
  modelErrorIssues,
  pathSegments,
  pointerSegments,
  type ScenarioIssue,
} from './schemaErrors';
import { MAX_SCENARIO_BYTES } from './share';
import { checkScenarioText } from './validate';

export type DrawerTab = 'library' | 'editor';

export interface ScenarioDrawerProps {
  pg: Playground;
  open: boolean;
  tab: DrawerTab;
  onTab: (t: DrawerTab) => void;
  onClose: () => void;
}

export function ScenarioDrawer({ pg, open, tab, onTab, onClose }: ScenarioDrawerProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  return (
    <aside className="drawer" hidden={!open} aria-label="Scenarios" data-testid="scenario-drawer">
      <header className="drawer__head">
        <div className="tabs" role="tablist" aria-label="Scenario views">
          <button
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === 'library'}
            data-testid="tab-library"
            onClick={() => onTab('library')}
          >
            Library
          </button>
          <button
            type="button"
            role="tab"
            className="tab"
            aria-selected={tab === 'editor'}
            data-testid="tab-editor"
            onClick={() => onTab('editor')}
          >
            Editor
          </button>
        </div>
        <button ref={closeRef} type="button" className="btn btn--icon" aria-label="Close the scenario panel (Esc)" onClick={onClose}>
          ✕
        </button>
      </header>
      <div className="drawer__body" hidden={tab !== 'library'} role="tabpanel">
        <Library pg={pg} onLoaded={onClose} />
      </div>
      <div className="drawer__body drawer__body--editor" hidden={tab !== 'editor'} role="tabpanel">
        <Editor pg={pg} />
      </div>
    </aside>
  );
}

function Library({ pg, onLoaded }: { pg: Playground; onLoaded: () => void }) {
  const scenario = usePg(pg, (s) => s.scenario);
  const current = scenario?.source.kind === 'library' ? scenario.source.path : null;
  return (
    <div className="library">
      {library.map((group) => (
        <section className="catalog__group" key={group.topic} aria-labelledby={`topic-${group.topic}`}>
          <h3 className="catalog__topic" id={`topic-${group.topic}`}>
            {group.topic}
          </h3>
          <ul className="catalog__list">
            {group.entries.map((entry) => (
              <li key={entry.path}>
                <button
                  type="button"
                  className="catalog__entry"
                  data-testid="library-entry"
                  data-path={entry.path}
                  aria-current={entry.path === current ? 'true' : undefined}
                  onClick={() => {
                    clearShareHash();
                    void loadEntry(pg, entry, true);
                    onLoaded();
                  }}
                >
                  <span className="catalog__title">{entry.title}</span>
                  <span className="catalog__path">{entry.path}</span>
                  <span className="catalog__desc">{entry.description}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function issueRange(text: string, issue: ScenarioIssue): { start: number; end: number } | null {
  if (issue.line !== undefined && issue.column !== undefined) {
    const lines = text.split('\n');
    let offset = 0;
    for (let l = 1; l < issue.line && l <= lines.length; l++) offset += lines[l - 1]!.length + 1;
    const start = Math.min(text.length, offset + issue.column - 1);
    return { start, end: Math.min(text.length, start + 1) };
  }
  const segments = issue.pointer !== undefined ? pointerSegments(issue.pointer) : pathSegments(issue.path);
  if (!segments) return null;
  return locateInJson(text, segments);
}

function Editor({ pg }: { pg: Playground }) {
  const scenario = usePg(pg, (s) => s.scenario);
  const loading = usePg(pg, (s) => s.loading);
  const [draft, setDraft] = useState('');
  const [modelIssues, setModelIssues] = useState<ScenarioIssue[]>([]);
  const [applied, setApplied] = useState<string | null>(null);
  const [fileError, setFileError] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const gutterRef = useRef<HTMLPreElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  // A newly loaded scenario (library, link, reset) replaces the draft; not
  // while Apply runs, which may reload the previous scenario on failure and
  // must not throw the user's edits away.
  const applying = useRef(false);
  const loadedByApply = useRef<unknown>(null);
  useEffect(() => {
    if (scenario && !applying.current && scenario !== loadedByApply.current) setDraft(scenario.text);
  }, [scenario]);

  const check = useMemo(() => checkScenarioText(draft), [draft]);
  const lineCount = useMemo(() => draft.split('\n').length, [draft]);
  const gutter = useMemo(() => Array.from({ length: lineCount }, (_, i) => i + 1).join('\n'), [lineCount]);
  const dirty = scenario !== null && draft !== scenario.text;

  const apply = async (text = draft, source: Parameters<typeof applyScenarioText>[3] = { kind: 'editor' }) => {
    const c = checkScenarioText(text);
    if (c.value === undefined || typeof c.value !== 'object' || c.value === null || Array.isArray(c.value)) return;
    setApplied(null);
    setModelIssues([]);
    applying.current = true;
    let result;
    try {
      result = await applyScenarioText(pg, c.value as Record<string, unknown>, text, source);
    } finally {
      loadedByApply.current = pg.state.scenario;
      applying.current = false;
    }
    setDraft(text);
    if (result.ok) {
      setModelIssues([]);
      setApplied('Applied: the model accepted the scenario and is running it.');
    } else {
      setModelIssues(modelErrorIssues(result.error));
    }
  };

  const jump = (issue: ScenarioIssue) => {
    const ta = textRef.current;
    if (!ta) return;
    const range = issueRange(draft, issue);
    ta.focus();
    if (!range) return;
    ta.setSelectionRange(range.start, range.end);
    const { line } = lineColumn(draft, range.start);
    const lh = parseFloat(getComputedStyle(ta).lineHeight) || 18;
    ta.scrollTop = Math.max(0, (line - 4) * lh);
  };

  const onKeyDown = (e: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
      e.preventDefault();
      void apply();
    } else if (e.key === 'Tab' && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
      // Indent instead of leaving the field (Esc then Tab leaves it).
      e.preventDefault();
      const ta = e.currentTarget;
      const { selectionStart: s, selectionEnd: en } = ta;
      const next = `${draft.slice(0, s)}  ${draft.slice(en)}`;
      setDraft(next);
      requestAnimationFrame(() => ta.setSelectionRange(s + 2, s + 2));
    }
  };

  const openFile = async (file: File) => {
    setFileError('');
    if (file.size > MAX_SCENARIO_BYTES) {
      setFileError(`${file.name} is ${Math.round(file.size / 1024)} KiB; a scenario may be at most ${MAX_SCENARIO_BYTES / 1024} KiB.`);
      return;
    }
    const text = await file.text();
    setDraft(text);
    setModelIssues([]);
    setApplied(null);
    const c = checkScenarioText(text);
    if (c.ok) await apply(text, { kind: 'file', name: file.name });
  };

  const saveFile = () => {
    let name = 'scenario';
    if (scenario?.source.kind === 'library') name = scenario.source.path.replace(/^.*\//, '').replace(/\.json$/, '');
    else if (check.ok && typeof check.value.title === 'string') name = slugify(check.value.title);
    else if (scenario) name = slugify(scenario.title);
    downloadText(draft.endsWith('\n') ? draft : `${draft}\n`, `${name}.json`, 'application/json');
  };

  const format = () => {
    if (check.value !== undefined) setDraft(JSON.stringify(check.value, null, 2));
  };

  const parsed = check.value !== undefined;
  return (
    <div className="editor">
      <div className="editor__toolbar">
        <button
          type="button"
          className="btn btn--primary"
          data-testid="editor-apply"
          disabled={!parsed || loading}
          onClick={() => void apply()}
          title="Load this scenario into the model and run it (Ctrl+Enter)"
        >
          Apply
        </button>
        <button type="button" className="btn" disabled={!dirty} onClick={() => scenario && setDraft(scenario.text)} title="Back to the running scenario">
          Revert
        </button>
        <button type="button" className="btn" disabled={!parsed} onClick={format} title="Pretty-print the JSON">
          Format
        </button>
        <span className="spacer" />
        <button type="button" className="btn" data-testid="editor-open" onClick={() => fileRef.current?.click()} title="Open a scenario .json file">
          Open file…
        </button>
        <button type="button" className="btn" data-testid="editor-save" onClick={saveFile} title="Download this text as a .json file">
          Save file
        </button>
        <input
          ref={fileRef}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="editor-file"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (f) void openFile(f);
          }}
        />
      </div>
      <div className="editor__area">
        <pre className="editor__gutter" ref={gutterRef} aria-hidden="true">
          {gutter}
        </pre>
        <textarea
          ref={textRef}
          className="editor__text"
          data-testid="editor-text"
          aria-label="Scenario JSON"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          wrap="off"
          value={draft}
          onChange={(e) => {
            setDraft(e.currentTarget.value);
            setApplied(null);
          }}
          onScroll={(e) => {
            if (gutterRef.current) gutterRef.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      <div className="editor__status" data-testid="editor-status" data-valid={check.ok ? 'true' : 'false'}>
        {check.ok ? (
          <span className="ok">✓ Valid against scenarios/schema.json{dirty ? ' · not applied yet' : ''}</span>
        ) : (
          <span className="bad">
            ✕ {check.issues.length} problem{check.issues.length === 1 ? '' : 's'}
          </span>
        )}
        {applied && !dirty ? <span className="ok"> · {applied}</span> : null}
      </div>
      {fileError ? (
        <p className="issues__file" role="alert">
          {fileError}
        </p>
      ) : null}
      {check.issues.length ? (
        <ul className="issues" data-testid="schema-errors" aria-label="Schema problems">
          {check.issues.map((issue, i) => (
            <li key={`${issue.path}-${i}`}>
              <button type="button" className="issue" onClick={() => jump(issue)} title="Show in the text">
                <code className="issue__path">{issue.path}</code>
                <span className="issue__msg">{issue.message}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {modelIssues.length ? (
        <div className="issues issues--model" data-testid="model-errors" role="alert">
          <p className="issues__head">The model refused this scenario; the previous scenario was reloaded:</p>
          <ul>
            {modelIssues.map((issue, i) => (
              <li key={`${issue.path}-${i}`}>
                <button type="button" className="issue" onClick={() => jump(issue)} title="Show in the text">
                  <code className="issue__path">{issue.path}</code>
                  <span className="issue__msg">{issue.message}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="editor__foot">
        Every field is described in docs/scenario-format.md. Share carries the applied scenario; Save file keeps this text.
      </p>
    </div>
  );
}
