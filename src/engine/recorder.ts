/**
 * What the hook recorder needs of the engine, and no more: it starts on every hook call, so it must not
 * load the database, the registry or the agents' session readers.
 */
export { readsHookOutput } from './agents/payloads';
export { appendEventLine } from './events/eventLog';
export {
  projectStateDir,
  resolveHome,
  SESSION_CONTEXT_COMPACT_FILE,
  SESSION_CONTEXT_FILE,
} from './kernel/paths';
export { identifyProject } from './kernel/projectIdentity';
export { MAX_CONTEXT_CHARS, sessionStartOutput } from './context/hookOutput';
export { takeAgentHint } from './context/agentHint';
export { buildRecord, MAX_INPUT_BYTES } from './log/hookRecord';
export { claimEvent } from './log/duplicateEvents';
