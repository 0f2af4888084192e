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

export {
  PLUGIN_FILE_NAME,
  type PluginRecorder,
  isContextDeckPlugin,
  pluginSource,
  recorderFromCommand,
} from './plugin';
export {
  ForeignPluginError,
  type OpencodeScope,
  opencodeConfigDir,
  opencodePluginPath,
} from './pluginInstaller';
export { type ReadOptions, type StoreRead, findSessionFiles, readOpencodeStore } from './sessionStore';
export { mcpServerOf, mcpToolName, opencodeAgentType, toolCall } from './toolKinds';
export { type WalReplay, applyWal, readWalSnapshot } from './walRead';
