/** How the UI and the CLI name each agent, by the id the engine tags events and sessions with. */
const AGENT_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  vscode: 'VS Code agent',
  codex: 'Codex CLI',
  opencode: 'opencode',
  'copilot-cli': 'GitHub Copilot CLI',
};

export function agentName(id: string): string {
  return AGENT_NAMES[id] ?? id;
}
