/**
 * What the hook recorder needs of the engine, and no more: it starts on every hook call, so it must not
 * load the database, the registry or the agents' session readers.
 */
export { normalisePayload, readPayload, readsHookOutput } from './agents/payloads';
export { type AgentId, type EventKind } from './agents/types';
export { RECORDER_KEY } from './log/eventLine';
export { appendEventLine } from './log/eventLog';
export { projectStateDir, resolveHome, SESSION_CONTEXT_FILE } from './project/paths';
export {
  cutMarker,
  type CutNote,
  joinPath,
  redactAndCut,
  redactValue,
  sliceSafe,
  unescapeJson,
} from './redact';
export { makePrivateDir, PRIVATE_FILE_MODE } from './storage/privateFiles';
