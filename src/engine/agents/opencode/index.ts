/** opencode (sst/opencode, now anomalyco/opencode): plugin-based recording, its SQLite session store, its MCP config. */
import type { AgentAdapter } from '../adapter';
import { opencodeContextLimits } from './compactPoint';
import { opencodeTools } from './mcpConfig';
import { opencodeMemoryServer } from './memoryServer';
import { opencodePayloads } from './payload';
import { opencodeHooks } from './pluginInstaller';
import { opencodeSessions } from './sessionStore';

export const opencodeAdapter: AgentAdapter = {
  id: 'opencode',
  displayName: 'opencode',
  traces: {
    home: ['.config/opencode', '.local/share/opencode'],
    project: ['.opencode', 'opencode.json', 'opencode.jsonc'],
    command: 'opencode',
  },
  payloads: opencodePayloads,
  hooks: opencodeHooks,
  sessions: opencodeSessions,
  tools: opencodeTools,
  memoryServer: opencodeMemoryServer,
  contextLimits: opencodeContextLimits,
};

export { PLUGIN_FILE_NAME, isContextDeckPlugin, pluginSource } from './plugin';
export { ForeignPluginError, opencodeConfigDir, opencodePluginPath } from './pluginInstaller';
export { findSessionFiles, readOpencodeStore } from './sessionStore';
export { mcpServerOf, mcpToolName, opencodeAgentType, toolCall } from './toolKinds';
