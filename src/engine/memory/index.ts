/** The memory: observations derived from the event log, searched, walked through and edited by events. */
export { TOKEN_BUDGET, estimateTokens, fitToBudget } from './budget';
export { formatObservations, formatSearch, formatTimeline } from './format';
export { resolveId, shortId } from './ids';
export { saveToMemory, setForgotten } from './memoryEvents';
export { MAX_SAVED_TEXT } from './eventMemory';
export { MemoryQueryError, parseTime } from './query';
export { MAX_SEARCH_LIMIT, searchObservations } from './search';
export { memoryCounts } from './stats';
export { MAX_GET_IDS, TIMELINE_LIMITS, getObservations, timeline } from './timeline';
export {
  MEMORY_EVENTS,
  OBSERVATION_TYPES,
  type Observation,
  type ObservationType,
  isObservationType,
} from './types';
