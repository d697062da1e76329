// Run controls, speed, fault buttons and the status line.
import type { Playground } from './playground';
import { formatInt, formatSimTime } from './format';
import { usePg } from './hooks';
import { Icon } from './Icon';
import { MAX_SPEED_INDEX, SPEEDS } from './speeds';

export function ControlBar({ pg, onFailBlock }: { pg: Playground; onFailBlock: () => void }) {
  const playing = usePg(pg, (s) => s.playing);
  const runningToEnd = usePg(pg, (s) => s.runningToEnd);
  const speedIndex = usePg(pg, (s) => s.speedIndex);
  const ready = usePg(pg, (s) => s.phase === 'ready' && !s.loading && s.device !== null);
  const finished = usePg(pg, (s) => s.frame?.finished ?? false);
  const busy = playing || runningToEnd;

  return (
    <div className="controls" role="toolbar" aria-label="Run controls">
      <div className="controls__group">
        <button
          type="button"
          className={`btn btn--primary${busy ? ' is-active' : ''}`}
          data-testid="play"
          aria-pressed={busy}
          disabled={!ready || (finished && !busy)}
          onClick={() => pg.togglePlay()}
          title="Play / pause (Space)"
        >
          <Icon name={busy ? 'pause' : 'play'} />
          {busy ? 'Pause' : 'Play'}
        </button>
        <button
          type="button"
          className="btn"
          data-testid="step"
          disabled={!ready || finished}
          onClick={() => void pg.step()}
          title="Process one event (S or →)"
        >
          <Icon name="step" />
          Step
        </button>
        <button
          type="button"
          className="btn"
          data-testid="run-to-end"
          disabled={!ready || finished || runningToEnd}
          onClick={() => void pg.runToEnd()}
          title="Run to the end of the workload (E)"
        >
          <Icon name="end" />
          Run to end
        </button>
        <button
          type="button"
          className="btn"
          data-testid="reset"
          disabled={!ready}
          onClick={() => void pg.reset()}
          title="Reload the scenario from the start (R)"
        >
          <Icon name="reset" />
          Reset
        </button>
      </div>

      <div className="controls__group" aria-label="Speed">
        <span className="controls__label" id="speed-label">
          Speed
        </span>
        <button
          type="button"
          className="btn btn--icon"
          aria-label="Slower"
          title="Slower (−)"
          disabled={speedIndex <= 0}
          onClick={() => pg.slower()}
        >
          −
        </button>
        <select
          className="select"
          data-testid="speed"
          aria-labelledby="speed-label"
          title="Simulated time per wall-clock second"
          value={speedIndex}
          onChange={(e) => {
            pg.setSpeed(Number(e.currentTarget.value));
            e.currentTarget.blur(); // give the keyboard shortcuts back
          }}
        >
          {SPEEDS.map((s, i) => (
            <option key={s.label} value={i}>
              {s.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn--icon"
          aria-label="Faster"
          title="Faster (+)"
          disabled={speedIndex >= MAX_SPEED_INDEX}
          onClick={() => pg.faster()}
        >
          +
        </button>
      </div>

      <div className="controls__group" aria-label="Faults">
        <button
          type="button"
          className="btn btn--danger"
          data-testid="power-fail"
          disabled={!ready}
          onClick={() => void pg.powerFail()}
          title="Cut the power now; the device reboots and recovers (P)"
        >
          <Icon name="bolt" />
          Power fail
        </button>
        <button
          type="button"
          className="btn btn--danger"
          data-testid="fail-block"
          disabled={!ready}
          onClick={onFailBlock}
          title="Take a block out of service (B); click a block in the block map to pick it"
        >
          <Icon name="cross" />
          Fail block
        </button>
      </div>

      <StatusLine pg={pg} />
    </div>
  );
}

function StatusLine({ pg }: { pg: Playground }) {
  const frame = usePg(pg, (s) => s.frame);
  const phase = usePg(pg, (s) => s.phase);
  const loading = usePg(pg, (s) => s.loading);
  const playing = usePg(pg, (s) => s.playing);
  const runningToEnd = usePg(pg, (s) => s.runningToEnd);
  const speedIndex = usePg(pg, (s) => s.speedIndex);

  let state: string;
  let tone = 'idle';
  if (phase === 'starting') state = 'starting the model…';
  else if (phase === 'failed') {
    state = 'model unavailable';
    tone = 'error';
  } else if (loading) state = 'loading scenario…';
  else if (!frame) state = 'no scenario';
  else if (frame.recovering) {
    state = 'recovering';
    tone = 'warn';
  } else if (frame.finished) {
    state = 'finished';
    tone = 'done';
  } else if (runningToEnd) {
    state = 'running to end…';
    tone = 'run';
  } else if (playing) {
    state = `running · ${SPEEDS[speedIndex]!.label}`;
    tone = 'run';
  } else state = 'paused';

  const notes: string[] = [];
  if (frame?.metrics.sim.time_limited) notes.push('stopped at the time limit (run.max_time_ns)');
  if (frame?.metrics.sim.stalled) notes.push('stalled: no free space');
  const progress = frame && frame.maxTimeNs > 0 ? Math.min(1, frame.nowNs / frame.maxTimeNs) : 0;

  return (
    <div
      className="status"
      data-testid="status"
      data-state={state.split(' ')[0]}
      role="status"
      aria-live="polite"
      aria-atomic="false"
    >
      <span className={`status__state status__state--${tone}`}>{state}</span>
      {frame ? (
        <>
          <span className="status__time" title="Simulated time / the scenario's time limit">
            {formatSimTime(frame.nowNs)}
            <span className="status__dim"> / {formatSimTime(frame.maxTimeNs, 0)}</span>
          </span>
          <span className="status__events" title="Events processed">
            {formatInt(frame.events)} ev
          </span>
          <span className="status__progress" aria-hidden="true">
            <span style={{ width: `${(progress * 100).toFixed(1)}%` }} />
          </span>
        </>
      ) : null}
      {notes.map((n) => (
        <span className="status__note" key={n}>
          {n}
        </span>
      ))}
    </div>
  );
}
