/**
 * The config scan: every place an agent's tools are declared, for one project and its user. Reading only,
 * no database: `applyScan` turns the result into registry changes.
 */
import * as path from 'node:path';
import { AGENT_ADAPTERS } from '../agents';
import { isWithin } from '../kernel/paths';
import { type AgentSettings, claudeJsonProjectPath, readAgentSettings } from './agentSettings';
import { type ConfigLocationOptions, type ConfigLocations, configLocations } from './configPaths';
import { type JsonConfig, readJsonConfig } from '../kernel/jsonConfig';
import { type MarkdownOwner, agentEntries, commandEntries, skillEntries } from '../agents/markdownTools';
import { serverEntries } from './mcpServers';
import { pluginEntries } from './pluginScan';
import { TOOL_SCOPES, type ToolScope } from '../../shared/tools';
import type { ConfigEntry, ConfigScan, ScanProblem } from '../agents/toolTypes';

export interface ScanOptions extends ConfigLocationOptions {
  /** Read only these scopes, e.g. `['project']` after a project file changed (default: all). */
  scopes?: readonly ToolScope[];
}

/** Tools of the user's own config: ~/.claude.json's top-level servers and ~/.claude's markdown tools. */
function globalEntries(
  locations: ConfigLocations,
  claudeJson: JsonConfig | undefined,
  settings: AgentSettings,
  problems: ScanProblem[],
): ConfigEntry[] {
  const owner: MarkdownOwner = { scope: 'global', prefix: '', disabled: false };
  return [
    ...(claudeJson
      ? serverEntries(claudeJson, ['mcpServers'], {
          scope: 'global',
          isDisabled: (key) => settings.disabledMcpServers.has(key),
        })
      : []),
    ...markdownEntries(locations.claudeDir, owner, problems),
  ];
}

/**
 * Tools of the project, in Claude Code's precedence (its own entry in ~/.claude.json over `.mcp.json`),
 * then the other agents' files.
 */
function projectEntries(
  locations: ConfigLocations,
  claudeJson: JsonConfig | undefined,
  settings: AgentSettings,
  read: (file: string) => JsonConfig | undefined,
  problems: ScanProblem[],
): ConfigEntry[] {
  const root = locations.projectRoot;
  const entries: ConfigEntry[] = [];
  const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, root);
  if (claudeJson && projectEntry)
    entries.push(
      ...serverEntries(claudeJson, [...projectEntry, 'mcpServers'], {
        scope: 'project',
        isDisabled: (key) => settings.disabledMcpServers.has(key),
      }),
    );
  const mcpJson = read(path.join(root, '.mcp.json'));
  if (mcpJson)
    entries.push(
      ...serverEntries(mcpJson, ['mcpServers'], {
        scope: 'project',
        isDisabled: (key) => settings.disabledMcpjsonServers.has(key),
      }),
    );
  entries.push(
    ...markdownEntries(
      path.join(root, '.claude'),
      { scope: 'project', prefix: '', disabled: false, within: root },
      problems,
    ),
  );
  // VS Code's .vscode/mcp.json is read through its adapter, which names its tools as VS Code does.
  // Cursor has no per-project disable list.
  const cursor = read(path.join(root, '.cursor', 'mcp.json'));
  if (cursor)
    entries.push(...serverEntries(cursor, ['mcpServers'], { scope: 'project', isDisabled: () => false }));
  return entries;
}

/** Skills, commands and subagents under a `.claude` folder. */
function markdownEntries(claudeFolder: string, owner: MarkdownOwner, problems: ScanProblem[]): ConfigEntry[] {
  return [
    ...skillEntries(path.join(claudeFolder, 'skills'), owner, problems),
    ...commandEntries(path.join(claudeFolder, 'commands'), owner, problems),
    ...agentEntries(path.join(claudeFolder, 'agents'), owner, problems),
  ];
}

/**
 * MCP servers other agents declare in their own config (Codex's `config.toml`, opencode's
 * `opencode.json`), named as each agent names their tools. Claude Code's files are read above.
 */
function otherAgentsServers(
  locations: ConfigLocations,
  scopes: readonly ToolScope[],
  problems: ScanProblem[],
): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  for (const adapter of AGENT_ADAPTERS) {
    if (adapter.id === 'claude-code' || !adapter.tools) continue;
    const found = adapter.tools.servers(locations.projectRoot, locations.userHome, process.env);
    problems.push(...found.problems);
    for (const server of found.servers) {
      if (!scopes.includes(server.scope)) continue;
      entries.push({
        name: `${adapter.tools.mcpToolName(server.name, '')}*`,
        type: 'mcp_server',
        scope: server.scope,
        source: server.file,
        line: server.line,
        server: server.name,
        description: server.description,
        disabled: server.disabled,
      });
    }
  }
  return entries;
}

export function scanConfigs(options: ScanOptions): ConfigScan {
  const locations = configLocations(options);
  const scopes = TOOL_SCOPES.filter((scope) => (options.scopes ?? TOOL_SCOPES).includes(scope));
  const problems: ScanProblem[] = [];
  const configs: JsonConfig[] = [];
  // The repository's files are read only where they really are inside it.
  const read = (file: string): JsonConfig | undefined => {
    const within = isWithin(locations.projectRoot, file) ? locations.projectRoot : undefined;
    const result = readJsonConfig(file, { within });
    if ('problem' in result) problems.push({ file, message: result.problem });
    if (!('config' in result)) return undefined;
    configs.push(result.config);
    return result.config;
  };
  const claudeJson = read(locations.claudeJson);
  const settings = readAgentSettings(locations, claudeJson, read);
  const entries = scopes.flatMap((scope) => {
    switch (scope) {
      case 'global':
        return globalEntries(locations, claudeJson, settings, problems);
      case 'project':
        return projectEntries(locations, claudeJson, settings, read, problems);
      case 'plugin':
        return pluginEntries(locations, settings, read, problems);
    }
  });
  entries.push(...otherAgentsServers(locations, scopes, problems));
  // What reading their entries found odd (keys written twice, entries left out).
  for (const config of configs)
    problems.push(...config.warnings.map((warning) => ({ file: config.file, ...warning })));
  const seen = new Set<string>();
  const unique = entries.filter((entry) => {
    const key = `${entry.scope}\0${entry.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    entries: unique,
    problems,
    scopes,
    projectRoot: locations.projectRoot,
    userHome: locations.userHome,
  };
}
