/**
 * The MCP servers opencode's config declares: `mcp` in `opencode.json` / `opencode.jsonc` (JSON with
 * comments), each `{ type: "local", command: [...], environment, enabled }` or
 * `{ type: "remote", url, headers, enabled }` (packages/sdk/js/src/gen/types.gen.ts: McpLocalConfig,
 * McpRemoteConfig). opencode merges the global files (`config.json`, `opencode.json`, `opencode.jsonc` in
 * `$XDG_CONFIG_HOME/opencode` or `~/.config/opencode`), `$OPENCODE_CONFIG`, then the project's
 * (`opencode.json(c)` and `.opencode/opencode.json(c)`) (packages/opencode/src/config/config.ts).
 */
import * as path from 'node:path';
import { redactText } from '../../redact';
import { clipDescription } from '../markdownTools';
import type { ToolConfig } from '../adapter';
import type { Json } from '../jsonValues';
import { type ServerConfigFile, serversInJsonFiles } from '../jsonServers';
import { opencodeConfigDir } from './pluginInstaller';
import { switchOpencodeServer } from './serverSwitch';
import { mcpToolName } from './toolKinds';

/** Without a project, only the user's files (and `$OPENCODE_CONFIG`, from the current folder). */
function configFiles(
  projectRoot: string | undefined,
  userHome: string,
  env: NodeJS.ProcessEnv,
): ServerConfigFile[] {
  const global = opencodeConfigDir(userHome, env);
  const files: ServerConfigFile[] = ['config.json', 'opencode.json', 'opencode.jsonc'].map((name) => ({
    file: path.join(global, name),
    scope: 'global',
  }));
  const custom = env.OPENCODE_CONFIG?.trim();
  if (custom) files.push({ file: path.resolve(projectRoot ?? '.', custom), scope: 'global' });
  if (projectRoot === undefined) return files;
  for (const dir of [projectRoot, path.join(projectRoot, '.opencode')]) {
    for (const name of ['opencode.json', 'opencode.jsonc'])
      files.push({ file: path.join(dir, name), scope: 'project' });
  }
  return files;
}

/** "stdio: npx -y server" or "http: https://…", credentials redacted. */
function describe(server: Json): string | undefined {
  const command = Array.isArray(server.command)
    ? server.command.filter((word) => typeof word === 'string')
    : [];
  const url = typeof server.url === 'string' ? server.url : undefined;
  const text =
    server.type === 'remote' || (server.type === undefined && url)
      ? url && `http: ${url}`
      : command.length
        ? `stdio: ${command.join(' ')}`
        : undefined;
  return text ? clipDescription(redactText(text).text) : undefined;
}

function servers(projectRoot: string, userHome: string, env: NodeJS.ProcessEnv) {
  return serversInJsonFiles(configFiles(projectRoot, userHome, env), projectRoot, 'mcp', (server) => ({
    description: describe(server),
    disabled: server.enabled === false,
  }));
}

/** opencode's config files in the order it merges them, present or not. */
export function opencodeConfigFiles(
  projectRoot: string | undefined,
  userHome: string,
  env: NodeJS.ProcessEnv,
): string[] {
  return configFiles(projectRoot, userHome, env).map((entry) => entry.file);
}

export const opencodeTools: ToolConfig = {
  // Every file opencode would read, present or not: creating one declares servers too.
  files: opencodeConfigFiles,
  servers,
  mcpToolName,
  switchServer: (locations, server, enabled) => switchOpencodeServer(locations, server, enabled),
};
