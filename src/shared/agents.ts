/** The agents Context Deck knows, as the recorder tags their lines and `status --json` counts them. */
export const AGENT_IDS = ['claude-code', 'vscode', 'codex', 'opencode', 'copilot-cli', 'cline'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export function isAgentId(value: unknown): value is AgentId {
  return typeof value === 'string' && (AGENT_IDS as readonly string[]).includes(value);
}

/** How the UI and the CLI name each agent: one known to the engine without a name here fails to compile. */
const AGENT_NAMES: Readonly<Record<AgentId, string>> = {
  'claude-code': 'Claude Code',
  vscode: 'VS Code agent',
  codex: 'Codex CLI',
  opencode: 'opencode',
  'copilot-cli': 'GitHub Copilot CLI',
  cline: 'Cline',
};

/** An agent's name for people; an id the engine does not know (a newer recorder's) as it is. */
export function agentName(id: string): string {
  return isAgentId(id) ? AGENT_NAMES[id] : id;
}

/**
 * How far an agent's settings file holds our hooks: `partial`, some of them are missing; `unreadable`, the
 * file does not parse (its problem is said with it).
 */
export type HookConnectionStatus = 'connected' | 'partial' | 'absent' | 'unreadable';
