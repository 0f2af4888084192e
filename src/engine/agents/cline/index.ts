/**
 * Cline (the VS Code extension `saoudrizwan.claude-dev`, github.com/cline/cline): hook payloads, hook files
 * in `.clinerules/hooks/`, task folders in its storage (and its CLI 3.0's session folders), MCP servers in `cline_mcp_settings.json`, and where
 * it condenses its context. The recorder imports `./payload` alone, never this file.
 */
import type { AgentAdapter } from '../adapter';
import { clineContextLimits } from './contextLimits';
import { clineHooks } from './hookFiles';
import { clineTools } from './mcpSettings';
import { clinePayloads } from './payload';
import { clineSessionFiles } from './sessionFormats';

export const clineAdapter: AgentAdapter = {
  id: 'cline',
  displayName: 'Cline',
  traces: { home: ['.cline', 'Documents/Cline'], project: ['.clinerules'], command: 'cline' },
  payloads: clinePayloads,
  hooks: clineHooks,
  sessions: clineSessionFiles,
  tools: clineTools,
  contextLimits: clineContextLimits,
};

export { clineCompactAt } from './contextLimits';
