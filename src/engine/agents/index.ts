/**
 * The agents Context Deck works with, one adapter each. The engine and the host reach an agent's settings,
 * session files and tool config through this list; what sets an agent apart lives in its own folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentAdapter } from './adapter';
import { claudeCodeAdapter } from './claudeCode';
import { codexAdapter } from './codex';
import { copilotCliAdapter } from './copilotCli';
import { opencodeAdapter } from './opencode';
import type { AgentId } from '../../shared/agents';
import { findOnPath } from './commandOnPath';
import { vscodeAdapter } from './vscode';

export const AGENT_ADAPTERS: readonly AgentAdapter[] = [
  claudeCodeAdapter,
  vscodeAdapter,
  codexAdapter,
  opencodeAdapter,
  copilotCliAdapter,
];

export function adapterOf(id: AgentId): AgentAdapter | undefined {
  return AGENT_ADAPTERS.find((adapter) => adapter.id === id);
}

/** Where an agent leaves traces: its config folders at home and in the project, its command on PATH. */
const TRACES: Readonly<Record<AgentId, { home: string[]; project: string[]; command?: string }>> = {
  'claude-code': { home: ['.claude'], project: ['.claude', 'CLAUDE.md', '.mcp.json'], command: 'claude' },
  // Runs wherever this extension runs; its hook folders say someone set it up.
  vscode: { home: ['.copilot'], project: ['.github/hooks', '.vscode/mcp.json'] },
  codex: { home: ['.codex'], project: ['.codex', 'AGENTS.md'], command: 'codex' },
  // Shares VS Code's hook folders; its command says it is installed.
  'copilot-cli': { home: ['.copilot/session-state'], project: [], command: 'copilot' },
  opencode: {
    home: ['.config/opencode', '.local/share/opencode'],
    project: ['.opencode', 'opencode.json', 'opencode.jsonc'],
    command: 'opencode',
  },
};

/** What says an agent is used here: paths that exist, or its command on PATH; empty when nothing does. */
export function agentTraces(
  id: AgentId,
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const traces = TRACES[id];
  const found = [
    ...traces.project.map((name) => path.join(projectRoot, name)),
    ...traces.home.map((name) => path.join(userHome, name)),
  ].filter((candidate) => fs.existsSync(candidate));
  const command = traces.command && findOnPath(traces.command, env);
  return command ? [...found, command] : found;
}
