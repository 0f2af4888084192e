/** The memory: observations derived from the event log, searched, walked through and edited by events. */
export { TOKEN_BUDGET, type BudgetedText, estimateTokens, fitToBudget } from './budget';
export { formatObservations, formatSearch, formatTimeline } from './format';
export { type IdResolution, resolveId, shortId } from './ids';
export { type MemoryTarget, type SaveInput, saveToMemory, setForgotten } from './memoryEvents';
export { MAX_SAVED_TEXT } from './eventMemory';
export { MemoryQueryError, type ObservationFilters, parseTime } from './query';
export {
  MAX_SEARCH_LIMIT,
  RANKED_CANDIDATES,
  type SearchHit,
  type SearchOptions,
  type SearchResult,
  searchObservations,
} from './search';
export { memoryCounts } from './stats';
export {
  type GetResult,
  MAX_GET_IDS,
  TIMELINE_LIMITS,
  type TimelineEntry,
  type TimelineOptions,
  type TimelineResult,
  getObservations,
  timeline,
} from './timeline';
export {
  MEMORY_EVENTS,
  type MemoryOrigin,
  OBSERVATION_TYPES,
  type Observation,
  type ObservationSource,
  type ObservationType,
  isObservationType,
} from './types';
