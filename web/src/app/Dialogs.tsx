// Modal dialogs of the shell: keyboard help, and picking a block to fail.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { DeviceInfo } from '../bridge/protocol';
import { SHORTCUTS } from './shortcuts';

function Modal({
  title,
  onClose,
  children,
  testId,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
  wide?: boolean;
}) {
  const titleId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const box = boxRef.current;
    const first =
      box?.querySelector<HTMLElement>('[data-autofocus]') ?? box?.querySelector<HTMLElement>('input, button, select, textarea');
    first?.focus();
    return () => previous?.focus?.();
  }, []);
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        className={`modal${wide ? ' modal--wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        ref={boxRef}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <header className="modal__head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn btn--icon" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </header>
        <div className="modal__body">{children}</div>
      </div>
    </div>
  );
}

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts and help" onClose={onClose} testId="help-overlay" wide>
      <div className="help-grid">
        <div>
          <h3>Shortcuts</h3>
          <table className="kbd-table">
            <tbody>
              {SHORTCUTS.map((s) => (
                <tr key={s.action}>
                  <td>
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 ? ' or ' : ''}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </td>
                  <td>{s.label}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="help-text">
          <h3>What you are looking at</h3>
          <p>
            A C++ model of an SSD runs in a background worker, compiled to WebAssembly. <b>Speed</b> is simulated device
            time per second of your time: at 1 ms/s one millisecond of the drive’s life takes a second to watch.{' '}
            <b>Max</b> runs as fast as your machine allows.
          </p>
          <p>
            <b>Floor plan</b>: channels (buses) and their dies; a die’s colour is what it is doing now. <b>Block map</b>:
            every erase block; click one to pick it for <i>Fail block</i>. <b>Event timeline</b>: garbage collection,
            erases, power failures and the recovery steps after them.
          </p>
          <p>
            <b>Power fail</b> cuts the power at the current instant: data still in the volatile buffer is lost unless the
            capacitors can flush it, then the device reboots and rebuilds its mapping; each recovery step appears on the
            timeline with its duration.
          </p>
          <p>
            <b>Scenarios</b> (L) opens the library and the editor; <b>Share</b> makes a link that carries the whole
            scenario. Each panel’s (i) button explains it, and its SVG / PNG buttons save the chart.
          </p>
        </div>
      </div>
    </Modal>
  );
}

export function FailBlockDialog({
  device,
  selected,
  onFail,
  onClose,
}: {
  device: DeviceInfo;
  selected: number | null;
  onFail: (block: number) => void;
  onClose: () => void;
}) {
  const max = device.blocks - 1;
  const [value, setValue] = useState(() => String(selected ?? Math.floor(Math.random() * device.blocks)));
  const n = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= max;
  const perPlane = device.blocks_per_plane;
  return (
    <Modal title="Fail a block" onClose={onClose} testId="fail-block-dialog">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onFail(n);
        }}
      >
        <p className="form__hint">
          The FTL takes the block out of service: its valid pages are moved elsewhere and it is never written again.
          {selected === null ? ' Tip: click a block in the block map to pick it.' : ''}
        </p>
        <label className="form__row">
          <span>Block (0–{max})</span>
          <input
            className="input input--mono"
            data-testid="fail-block-input"
            type="number"
            min={0}
            max={max}
            step={1}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            data-autofocus
          />
        </label>
        {valid ? (
          <p className="form__hint">
            Plane {Math.floor(n / perPlane)}, block {n % perPlane} of that plane.
          </p>
        ) : (
          <p className="form__error" role="alert">
            Enter a block number from 0 to {max}.
          </p>
        )}
        <div className="form__actions">
          <button type="button" className="btn" onClick={() => setValue(String(Math.floor(Math.random() * device.blocks)))}>
            Random block
          </button>
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--danger" data-testid="fail-block-confirm" disabled={!valid}>
            Fail block
          </button>
        </div>
      </form>
    </Modal>
  );
}
