/**
 * Claude Code: hook payloads and settings here; its transcripts, which say what fills the context item by
 * item, have their own reader (transcripts/), richer than the neutral session items other agents give.
 */
import type { AgentAdapter } from '../adapter';
import { claudeHooks } from './hooks';
import { claudeMemoryServer } from './memoryServer';
import { claudePayloads } from './payload';

export const claudeCodeAdapter: AgentAdapter = {
  id: 'claude-code',
  displayName: 'Claude Code',
  payloads: claudePayloads,
  hooks: claudeHooks,
  memoryServer: claudeMemoryServer,
};
