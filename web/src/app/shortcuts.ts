// Keyboard shortcuts: one table drives both the key handler and the help
// overlay, so they cannot disagree. Pure: unit-tested in Node.

export type Action =
  | 'togglePlay'
  | 'step'
  | 'runToEnd'
  | 'reset'
  | 'faster'
  | 'slower'
  | 'powerFail'
  | 'failBlock'
  | 'help'
  | 'scenarios'
  | 'close';

export interface Shortcut {
  action: Action;
  /** Keys as shown to the user. */
  keys: string[];
  label: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'togglePlay', keys: ['Space'], label: 'Play / pause' },
  { action: 'step', keys: ['S', '→'], label: 'Step one event' },
  { action: 'runToEnd', keys: ['E'], label: 'Run to the end' },
  { action: 'reset', keys: ['R'], label: 'Reset: reload the scenario' },
  { action: 'faster', keys: ['+'], label: 'Faster' },
  { action: 'slower', keys: ['−'], label: 'Slower' },
  { action: 'powerFail', keys: ['P'], label: 'Power failure' },
  { action: 'failBlock', keys: ['B'], label: 'Fail a block' },
  { action: 'scenarios', keys: ['L'], label: 'Scenario library and editor' },
  { action: 'help', keys: ['?'], label: 'This help' },
  { action: 'close', keys: ['Esc'], label: 'Close a dialog or panel' },
];

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The action for a key press, or null (modifier chords are left to the browser). */
export function actionForKey(e: KeyLike): Action | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case ' ':
    case 'Spacebar':
      return 'togglePlay';
    case 's':
    case 'S':
    case 'ArrowRight':
      return 'step';
    case 'e':
    case 'E':
      return 'runToEnd';
    case 'r':
    case 'R':
      return 'reset';
    case '+':
    case '=':
      return 'faster';
    case '-':
    case '_':
      return 'slower';
    case 'p':
    case 'P':
      return 'powerFail';
    case 'b':
    case 'B':
      return 'failBlock';
    case 'l':
    case 'L':
      return 'scenarios';
    case '?':
      return 'help';
    case 'Escape':
      return 'close';
    default:
      return null;
  }
}

/** True when keys typed at `target` belong to it (text fields, selects, editable content). */
export function isTypingTarget(target: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable) return true;
  if (tag === 'INPUT') {
    const type = (target.type ?? 'text').toLowerCase();
    return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(type);
  }
  return false;
}
