/** Claude Code transcripts: history import into a project's database, and the live context gauge. */
export { type ContextGaugeOptions, type GaugeReading, type TrendPoint, ContextGauge } from './contextGauge';
export { estimateSteps } from './contextForecast';
export type { BreakdownItem, BreakdownItemRef, ContextBreakdown } from './breakdownTypes';
// What the host and the dashboard show of the context is declared in src/shared.
export type {
  BreakdownCategory,
  BreakdownCategoryName,
  BreakdownItemKind,
  Compaction,
  ContextForecast,
  Tipping,
} from '../../shared/context';
export { MAX_BREAKDOWN_ITEMS } from './breakdownTypes';
export { AUTOCOMPACT_BUFFER_TOKENS } from './breakdownCompose';
export { toolResultText } from './toolResultText';
export {
  type TranscriptImportOptions,
  type TranscriptImportProgress,
  type TranscriptImportResult,
  importTranscripts,
} from './importTranscripts';
export { encodeProjectDir, findActiveTranscript } from './transcriptFiles';
