/**
 * OpenAI Codex CLI (github.com/openai/codex): hook payloads, `hooks.json` connection, rollout session
 * files and `[mcp_servers]` in `config.toml`. The recorder imports `./payload` alone, never this file.
 */
import type { AgentAdapter } from '../adapter';
import { codexHooks } from './hooksFile';
import { codexTools } from './mcpConfig';
import { codexMemoryServer } from './memoryServer';
import { codexPayloads } from './payload';
import { codexSessions } from './rolloutFiles';

export const codexAdapter: AgentAdapter = {
  id: 'codex',
  displayName: 'Codex CLI',
  traces: { home: ['.codex'], project: ['.codex', 'AGENTS.md'], command: 'codex' },
  payloads: codexPayloads,
  hooks: codexHooks,
  sessions: codexSessions,
  tools: codexTools,
  memoryServer: codexMemoryServer,
};
