/**
 * GitHub Copilot CLI (`copilot`): its hook payloads. It has no hook file of its own here: it runs the hooks
 * of `.github/hooks/*.json`, the folder VS Code's agent reads, so connecting VS Code connects it too.
 */
import type { AgentAdapter } from '../adapter';
import { copilotCliPayloads } from './payload';

export const copilotCliAdapter: AgentAdapter = {
  id: 'copilot-cli',
  displayName: 'GitHub Copilot CLI',
  // Shares VS Code's hook folders; its command says it is installed.
  traces: { home: ['.copilot/session-state'], project: [], command: 'copilot' },
  payloads: copilotCliPayloads,
};
