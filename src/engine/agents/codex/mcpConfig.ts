/**
 * Codex's MCP servers: `[mcp_servers.<name>]` tables in `$CODEX_HOME/config.toml` (global) and in a
 * project's `.codex/config.toml`, which Codex reads only once the user trusts the project
 * (developers.openai.com/codex/mcp). A server runs a `command` with `args` (stdio) or is reached at a `url`
 * (streamable HTTP); `enabled = false` keeps it declared but off.
 */
import * as path from 'node:path';
import { redactText } from '../../redact';
import { MAX_MEMBERS, MAX_NESTING } from '../../kernel/jsonConfig';
import { configMaxBytes, readBounded } from '../../kernel/boundedRead';
import type { DeclaredServer, ToolConfig } from '../adapter';
import { codexHome } from './paths';
import { codexMcpToolName } from './toolKinds';
import { type Table, isTable, parseToml } from './toml';
import { switchCodexServer } from './serverSwitch';
import { serverLines } from './serverLines';

/** "stdio: npx -y server" or "http: https://…", credentials redacted: arguments and URLs may carry them. */
function describe(server: Table): string | undefined {
  const url = typeof server.url === 'string' ? server.url : undefined;
  const args = Array.isArray(server.args) ? server.args.filter((arg) => typeof arg === 'string') : [];
  const command = typeof server.command === 'string' ? [server.command, ...args].join(' ') : undefined;
  if (url !== undefined) return redactText(`http: ${url}`).text;
  if (command !== undefined) return redactText(`stdio: ${command}`).text;
  return undefined;
}

function problemMessage(error: unknown): string {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `could not be parsed as TOML: ${message}`;
}

export interface ConfigServers {
  servers: DeclaredServer[];
  problems: Array<{ file: string; message: string }>;
}

/** The servers one `config.toml` declares; a file that does not parse is a problem, not a throw. */
export function serversInConfig(file: string, text: string, scope: DeclaredServer['scope']): ConfigServers {
  let config: unknown;
  try {
    // smol-toml counts its depth as it parses: deeper than MAX_NESTING is an error, never a stack overflow.
    config = parseToml(text, { maxDepth: MAX_NESTING });
  } catch (error) {
    return { servers: [], problems: [{ file, message: problemMessage(error) }] };
  }
  const section = isTable(config) ? config.mcp_servers : undefined;
  if (section === undefined) return { servers: [], problems: [] };
  if (!isTable(section))
    return { servers: [], problems: [{ file, message: '`mcp_servers` is not a table of servers' }] };
  const problems: ConfigServers['problems'] = [];
  const names = Object.keys(section);
  if (names.length > MAX_MEMBERS)
    problems.push({
      file,
      message: `\`mcp_servers\` has ${names.length} entries: only the first ${MAX_MEMBERS} are shown`,
    });
  const lines = serverLines(text).declared;
  const servers = names.slice(0, MAX_MEMBERS).map((name): DeclaredServer => {
    const value = section[name];
    const server = isTable(value) ? value : {};
    const declared: DeclaredServer = {
      name,
      file,
      line: lines.get(name) ?? 1,
      scope,
      disabled: server.enabled === false,
    };
    const description = describe(server);
    if (description !== undefined) declared.description = description;
    return declared;
  });
  return { servers, problems };
}

function configFiles(projectRoot: string, userHome: string, env: NodeJS.ProcessEnv) {
  const global = path.join(codexHome(env, userHome), 'config.toml');
  const project = path.join(projectRoot, '.codex', 'config.toml');
  // A project at the user's home has its `.codex` as the user layer: one file, read once.
  const same = path.resolve(global) === path.resolve(project);
  return same
    ? [{ file: global, scope: 'global' as const }]
    : [
        { file: global, scope: 'global' as const },
        { file: project, scope: 'project' as const },
      ];
}

export const codexTools: ToolConfig = {
  switchServer: (locations, server, enabled) => switchCodexServer(locations, server, enabled),
  files: (projectRoot, userHome, env) => configFiles(projectRoot, userHome, env).map(({ file }) => file),
  servers(projectRoot, userHome, env) {
    const result: ConfigServers = { servers: [], problems: [] };
    for (const { file, scope } of configFiles(projectRoot, userHome, env)) {
      const within = scope === 'project' ? projectRoot : undefined;
      const read = readBounded(file, { maxBytes: configMaxBytes(within), within });
      if ('problem' in read) result.problems.push({ file, message: read.problem });
      if (!('text' in read)) continue;
      const found = serversInConfig(file, read.text, scope);
      result.servers.push(...found.servers);
      result.problems.push(...found.problems);
    }
    return result;
  },
  mcpToolName: codexMcpToolName,
};
