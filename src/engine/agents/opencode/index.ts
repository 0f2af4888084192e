/** opencode (sst/opencode, now anomalyco/opencode): plugin-based recording, its SQLite session store, its MCP config. */
import type { AgentAdapter } from '../adapter';
import { opencodeTools } from './mcpConfig';
import { opencodeMemoryServer } from './memoryServer';
import { opencodePayloads } from './payload';
import { opencodeHooks } from './pluginInstaller';
import { opencodeSessions } from './sessionStore';

export const opencodeAdapter: AgentAdapter = {
  id: 'opencode',
  displayName: 'opencode',
  payloads: opencodePayloads,
  hooks: opencodeHooks,
  sessions: opencodeSessions,
  tools: opencodeTools,
  memoryServer: opencodeMemoryServer,
};

export { OPENCODE_EVENT_KEY, OPENCODE_EVENTS, opencodePayloads } from './payload';
export {
  PLUGIN_FILE_NAME,
  PLUGIN_MARKER,
  type PluginRecorder,
  isContextDeckPlugin,
  pluginSource,
  recorderFromCommand,
} from './plugin';
export {
  ForeignPluginError,
  OPENCODE_SCOPES,
  type OpencodeScope,
  opencodeConfigDir,
  opencodeHooks,
  opencodePluginPath,
} from './pluginInstaller';
export {
  type ReadOptions,
  type StoreRead,
  contextTokens,
  findSessionFiles,
  opencodeDataDir,
  opencodeSessions,
  readJsonSession,
  readOpencodeStore,
} from './sessionStore';
export { opencodeTools } from './mcpConfig';
export {
  BUILTIN_TOOL_KINDS,
  mcpServerOf,
  mcpToolName,
  opencodeAgentType,
  patchFiles,
  toolCall,
  toolInput,
  toolOutcome,
} from './toolKinds';
export { type WalReplay, applyWal, readWalSnapshot, walChecksum } from './walRead';
