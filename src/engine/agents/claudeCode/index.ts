/**
 * Claude Code: hook payloads and settings, its tool config, and its transcripts' format here. Its transcripts,
 * which say what fills the context item by item, are imported and followed by readers of their own
 * (transcripts/, live/), richer than the neutral session items other agents give.
 */
import type { AgentAdapter } from '../adapter';
import { claudeHooks } from './hooks';
import { claudeMemoryServer } from './memoryServer';
import { claudePayloads } from './payload';
import { claudeTools } from './toolConfig';

export const claudeCodeAdapter: AgentAdapter = {
  id: 'claude-code',
  displayName: 'Claude Code',
  traces: { home: ['.claude'], project: ['.claude', 'CLAUDE.md', '.mcp.json'], command: 'claude' },
  payloads: claudePayloads,
  hooks: claudeHooks,
  tools: claudeTools,
  memoryServer: claudeMemoryServer,
};
