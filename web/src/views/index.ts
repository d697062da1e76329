// The views: D3/canvas drawings of the model's frames. Import './views.css'
// once (index does it for you) and set data-theme="light" | "dark" on <html>
// (or any ancestor) to choose the palette; without it the light palette applies
// (the app resolves "follow the system" into one of the two).
import './views.css';

export { ChartPanel, type ChartPanelProps } from './ChartPanel';
export { FloorPlan, type FloorPlanProps } from './FloorPlan';
export { BlockMap, type BlockMapMode, type BlockMapProps } from './BlockMap';
export { TimeSeriesChart, type SeriesMetric, type TimeSeriesChartProps } from './TimeSeriesChart';
export { LatencyCdf, type LatencyCdfProps } from './LatencyCdf';
export { EventTimeline, type EventTimelineProps } from './EventTimeline';
export { HelpText, type GlossaryTerm, type ViewHelp } from './helpText';
export { exportPng, exportSvg, exportFilename } from './chartExport';
export {
  BLOCK_MARKS,
  BLOCK_STATES,
  BLOCK_STATE_COLORS,
  DIE_STATES,
  DIE_STATE_COLORS,
  OP_COLORS,
  OP_KINDS,
  SERIES_COLORS,
  TIMELINE_COLORS,
  type BlockStateName,
  type DieStateName,
  type ThemedColor,
} from './colors';
export { formatCount, formatDuration, formatMicros, timeTickFormatter } from './format';
