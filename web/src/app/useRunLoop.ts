// The run loop: one requestAnimationFrame callback per display frame. Each
// callback only *sends* work to the model worker (Playground.tick); answers
// arrive as messages and are applied to the store, which React draws. The UI
// thread never waits for the model.
import { useEffect } from 'react';
import type { Playground } from './playground';

export function useRunLoop(pg: Playground): void {
  useEffect(() => {
    let id = 0;
    const loop = (now: number) => {
      pg.tick(now);
      id = requestAnimationFrame(loop);
    };
    id = requestAnimationFrame(loop);
    return () => cancelAnimationFrame(id);
  }, [pg]);
}
