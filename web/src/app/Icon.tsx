// Small inline icons for the run controls (fonts lack some media glyphs).
const PATHS = {
  play: 'M4 2.5v11l9-5.5z',
  pause: 'M4 2.5h3v11H4zM9 2.5h3v11H9z',
  step: 'M3 2.5v11l7-5.5zM11 2.5h2.5v11H11z',
  end: 'M2 2.5v11l5.5-5.5zM7.5 2.5v11l5.5-5.5zM13 2.5h1.8v11H13z',
  reset: 'M8 2.2a5.8 5.8 0 1 1-5.6 4.3l1.9.5A3.8 3.8 0 1 0 8 4.2V6.6L4.6 3.3 8 0z',
  bolt: 'M9.5 1 3 9h4l-1 6 6.5-8h-4z',
  cross: 'M3.4 2 8 6.6 12.6 2 14 3.4 9.4 8l4.6 4.6-1.4 1.4L8 9.4 3.4 14 2 12.6 6.6 8 2 3.4z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
