/**
 * The MCP servers VS Code's agent uses: `servers` in the workspace's `.vscode/mcp.json` and in the user's
 * `User/mcp.json` in VS Code's user data folders (`vscodeUserDataDirs`, agents/vscodeUserData.ts), each `{ type: "stdio",
 * command, args, env }` or `{ type: "http" | "sse", url, headers }` (microsoft/vscode-docs
 * docs/copilot/reference/mcp-configuration.md). Their tools are named `mcp_<prefix>_<tool>` (toolKinds.ts),
 * so the registry links a call to the server it belongs to.
 */
import * as path from 'node:path';
import { redactText } from '../../redact';
import { clipDescription } from '../markdownTools';
import type { ToolConfig } from '../adapter';
import type { Json } from '../jsonValues';
import { declaresServer, type ServerConfigFile, serversInJsonFiles } from '../jsonServers';
import { unsupportedSwitch } from '../serverSwitchPlan';
import { vscodeMcpToolName } from './toolKinds';
import { vscodeUserDataDirs } from '../vscodeUserData';

function configFiles(projectRoot: string, userHome: string, env: NodeJS.ProcessEnv): ServerConfigFile[] {
  return [
    ...vscodeUserDataDirs({ ...env, HOME: userHome }).map((dir) => ({
      file: path.join(dir, 'User', 'mcp.json'),
      scope: 'global' as const,
    })),
    { file: path.join(projectRoot, '.vscode', 'mcp.json'), scope: 'project' },
  ];
}

/** "stdio: npx -y server" or "http: https://…", credentials redacted. */
function describe(server: Json): string | undefined {
  const args = Array.isArray(server.args) ? server.args.filter((arg) => typeof arg === 'string') : [];
  const text =
    typeof server.url === 'string'
      ? `${server.type === 'sse' ? 'sse' : 'http'}: ${server.url}`
      : typeof server.command === 'string'
        ? `stdio: ${[server.command, ...args].join(' ')}`
        : undefined;
  return text ? clipDescription(redactText(text).text) : undefined;
}

function servers(projectRoot: string, userHome: string, env: NodeJS.ProcessEnv) {
  return serversInJsonFiles(configFiles(projectRoot, userHome, env), projectRoot, 'servers', (server) => ({
    description: describe(server),
    // VS Code turns servers off in its own state, not in the file.
    disabled: false,
  }));
}

export const vscodeTools: ToolConfig = {
  files: (projectRoot, userHome, env) => configFiles(projectRoot, userHome, env).map((entry) => entry.file),
  servers,
  mcpToolName: vscodeMcpToolName,
  // VS Code keeps no per-project list of servers switched off: say what to do instead of pretending.
  switchServer: (locations, server, enabled) =>
    declaresServer(path.join(locations.projectRoot, '.vscode', 'mcp.json'), ['servers'], server)
      ? unsupportedSwitch(
          server,
          enabled,
          `${server} is declared in .vscode/mcp.json, and VS Code has no per-project list of disabled servers: stop it from VS Code's MCP server list, or remove the entry from the file`,
        )
      : undefined,
};
