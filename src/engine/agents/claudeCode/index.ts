/**
 * Claude Code: hook payloads and settings, its tool config, its transcripts (message transcripts, which say
 * what fills the context item by item) and where it compacts.
 */
import type { TranscriptAdapter } from '../adapter';
import { claudeContextLimits } from './contextLimits';
import { claudeHooks } from './hooks';
import { claudeMemoryServer } from './memoryServer';
import { claudePayloads } from './payload';
import { claudeTools } from './toolConfig';
import { claudeTranscripts } from './transcripts';

export const claudeCodeAdapter: TranscriptAdapter = {
  id: 'claude-code',
  displayName: 'Claude Code',
  traces: { home: ['.claude'], project: ['.claude', 'CLAUDE.md', '.mcp.json'], command: 'claude' },
  payloads: claudePayloads,
  hooks: claudeHooks,
  transcripts: claudeTranscripts,
  tools: claudeTools,
  memoryServer: claudeMemoryServer,
  contextLimits: claudeContextLimits,
};
