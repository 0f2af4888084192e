/**
 * VS Code's own agent: Copilot Chat's agent in VS Code, which VS Code's docs call the "Local" agent (the Local
 * harness, running in the extension host), as opposed to the Copilot, Claude and Codex harnesses it hosts.
 */
import type { AgentAdapter } from '../adapter';
import { vscodeHooks } from './hookFiles';
import { vscodeTools } from './mcpConfig';
import { vscodeMemoryServer } from './memoryServer';
import { vscodePayloads } from './payload';
import { vscodeSessions } from './transcript';

export const vscodeAdapter: AgentAdapter = {
  id: 'vscode',
  displayName: 'VS Code agent',
  // Runs wherever this extension runs; its hook folders say someone set it up.
  traces: { home: ['.copilot'], project: ['.github/hooks', '.vscode/mcp.json'] },
  payloads: vscodePayloads,
  hooks: vscodeHooks,
  sessions: vscodeSessions,
  tools: vscodeTools,
  memoryServer: vscodeMemoryServer,
};

export { recogniseVscodePayload, normaliseVscodePayload } from './payload';
export { vscodeToolOutcome } from './payload';
export { vscodeToolKind, vscodeMcpToolName } from './toolKinds';
export {
  VSCODE_RECORDED_EVENTS,
  isVscodeRecorderCommand,
  planVscodeConnect,
  planVscodeDisconnect,
  vscodeHookPath,
  vscodeHookState,
  windowsRecorderCommand,
} from './hookFiles';
