/**
 * OpenAI Codex CLI (github.com/openai/codex): hook payloads, `hooks.json` connection, rollout session
 * files, `[mcp_servers]` in `config.toml` and where it compacts. The recorder imports `./payload` alone,
 * never this file.
 */
import type { AgentAdapter } from '../adapter';
import { codexCompactAt } from './compactPoint';
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
  contextLimits: {
    compactAt: (window) => codexCompactAt(window),
    // Its footer's "N% context left" leaves out `BASELINE_TOKENS` (12,000: "prompts, tools and space to call
    // compact"; codex-rs/protocol/src/protocol.rs `percent_of_context_window_remaining`).
    displayBaseline: 12_000,
  },
};
