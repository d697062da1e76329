// A minimal external store: the run loop writes outside React, components read
// the slices they need with useStore(selector) and re-render only when that
// slice changes (selectors must return stored references, not new objects).
import { useSyncExternalStore } from 'react';

export class Store<S extends object> {
  private listeners = new Set<() => void>();

  constructor(private state: S) {}

  get = (): S => this.state;

  set(patch: Partial<S>): void {
    let changed = false;
    for (const key of Object.keys(patch) as (keyof S)[]) {
      if (!Object.is(this.state[key], patch[key])) {
        changed = true;
        break;
      }
    }
    if (!changed) return;
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

export function useStore<S extends object, T>(store: Store<S>, selector: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => selector(store.get()));
}
