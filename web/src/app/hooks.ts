// React glue for the shell: the playground instance, the theme, the keyboard.
import type React from 'react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openInitial, openShareLink } from './boot';
import { Playground, type PlaygroundState } from './playground';
import { actionForKey, isTypingTarget, type Action } from './shortcuts';
import { useStore } from './store';
import { applyTheme, readThemeChoice, storeThemeChoice, type Theme, type ThemeChoice } from './theme';

/** One Playground per page: starts the worker, opens the link or the default scenario. */
export function usePlayground(): Playground {
  const [pg] = useState(() => new Playground());
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const ok = await pg.start();
      if (!cancelled && ok) await openInitial(pg, window.location.hash);
    })();
    const onHash = () => {
      // A new link pasted into this tab: same checks, but keep the current
      // scenario if the link is bad.
      if (pg.state.phase === 'ready') void openShareLink(pg, window.location.hash, false);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      cancelled = true;
      window.removeEventListener('hashchange', onHash);
      pg.dispose();
    };
  }, [pg]);
  return pg;
}

export function usePg<T>(pg: Playground, selector: (s: PlaygroundState) => T): T {
  return useStore(pg.store, selector);
}

/** The theme choice (stored) and the theme in effect (applied to <html data-theme>). */
export function useTheme(): [ThemeChoice, Theme, (c: ThemeChoice) => void] {
  const [choice, setChoiceState] = useState<ThemeChoice>(() => readThemeChoice());
  const [theme, setTheme] = useState<Theme>(() => applyTheme(choice));
  useEffect(() => {
    setTheme(applyTheme(choice));
    if (choice !== 'system') return undefined;
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onChange = () => setTheme(applyTheme('system'));
    mq?.addEventListener?.('change', onChange);
    return () => mq?.removeEventListener?.('change', onChange);
  }, [choice]);
  const setChoice = useCallback((c: ThemeChoice) => {
    storeThemeChoice(c);
    setChoiceState(c);
  }, []);
  return [choice, theme, setChoice];
}

/**
 * Global keyboard shortcuts. Keys typed into text fields are theirs; while a
 * modal is open only Escape is handled here. Space is taken from focused
 * buttons too (it would otherwise click them as well as toggling play).
 */
export function useShortcuts(handler: (a: Action) => void, modalOpen: boolean): void {
  const ref = useRef(handler);
  ref.current = handler;
  const modalRef = useRef(modalOpen);
  modalRef.current = modalOpen;
  useEffect(() => {
    let swallowSpaceUp = false;
    const onKeyDown = (e: KeyboardEvent) => {
      const action = actionForKey(e);
      if (!action) return;
      if (isTypingTarget(e.target as HTMLElement | null)) {
        if (action === 'close') ref.current('close');
        return;
      }
      if (modalRef.current && action !== 'close') return;
      if (e.repeat && action !== 'step' && action !== 'faster' && action !== 'slower') return;
      e.preventDefault();
      if (action === 'togglePlay') swallowSpaceUp = true;
      ref.current(action);
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.key === ' ' && swallowSpaceUp) {
        e.preventDefault();
        swallowSpaceUp = false;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
    };
  }, []);
}

/** Closes a popover when the user clicks outside `box` or presses Escape. */
export function useDismiss(open: boolean, close: () => void, box: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close, box]);
}
