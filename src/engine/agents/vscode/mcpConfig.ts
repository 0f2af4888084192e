/**
 * The MCP servers VS Code's agent uses: `servers` in the workspace's `.vscode/mcp.json` and in the user's
 * `User/mcp.json` in VS Code's user data folders (transcript.ts `vscodeUserDataDirs`), each `{ type: "stdio",
 * command, args, env }` or `{ type: "http" | "sse", url, headers }` (microsoft/vscode-docs
 * docs/copilot/reference/mcp-configuration.md). Their tools are named `mcp_<prefix>_<tool>` (toolKinds.ts),
 * so the registry links a call to the server it belongs to.
 */
import * as path from 'node:path';
import { redactText } from '../../redact';
import { readJsonConfig } from '../../registry/jsonConfig';
import { clipDescription } from '../../registry/markdownTools';
import type { DeclaredServer, ToolConfig } from '../adapter';
import { vscodeMcpToolName } from './toolKinds';
import { vscodeUserDataDirs } from './transcript';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function configFiles(
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv,
): Array<{ file: string; scope: DeclaredServer['scope'] }> {
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

function servers(
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv,
): { servers: DeclaredServer[]; problems: Array<{ file: string; message: string }> } {
  const found: DeclaredServer[] = [];
  const problems: Array<{ file: string; message: string }> = [];
  for (const { file, scope } of configFiles(projectRoot, userHome, env)) {
    const read = readJsonConfig(file);
    if ('missing' in read) continue;
    if ('problem' in read) {
      problems.push({ file, message: read.problem });
      continue;
    }
    const declared = read.config.valueAt(['servers']);
    if (declared === undefined) continue;
    if (!isObject(declared)) {
      problems.push({ file, message: '"servers" is not an object' });
      continue;
    }
    for (const member of read.config.membersAt(['servers'])) {
      found.push({
        name: member.key,
        file,
        line: member.line,
        scope,
        description: describe(isObject(member.value) ? member.value : {}),
        // VS Code turns servers off in its own state, not in the file.
        disabled: false,
      });
    }
  }
  return { servers: found, problems };
}

export const vscodeTools: ToolConfig = {
  files: (projectRoot, userHome, env) => configFiles(projectRoot, userHome, env).map((entry) => entry.file),
  servers,
  mcpToolName: vscodeMcpToolName,
};
