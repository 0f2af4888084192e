/**
 * Which agents can use a tool: the agent whose config declares it (by the file that does), and the agents
 * whose sessions called it.
 */
import * as path from 'node:path';
import type { AgentId } from '../../shared/agents';

/** The agent that reads a config file; undefined for files of editors we don't record (Cursor). */
function declaringAgent(source: string): AgentId | undefined {
  const normalised = source.split(path.sep).join('/');
  const name = path.basename(normalised);
  if (normalised.endsWith('/.cursor/mcp.json')) return undefined;
  if (name === 'config.toml') return 'codex';
  if (/^opencode\.jsonc?$/.test(name) || (name === 'config.json' && normalised.includes('/opencode/')))
    return 'opencode';
  if (
    normalised.endsWith('/.vscode/mcp.json') ||
    /\/(Code|Code - Insiders|code-server)\/User\//.test(normalised)
  )
    return 'vscode';
  return 'claude-code';
}

/** The agents of a tool, declaring one first, each once. */
export function toolAgents(source: string | null, usedBy: string | null): string[] {
  const declared = source === null ? undefined : declaringAgent(source);
  const used = (usedBy ?? '').split(',').filter(Boolean);
  return [...new Set([...(declared ? [declared] : []), ...used])];
}
