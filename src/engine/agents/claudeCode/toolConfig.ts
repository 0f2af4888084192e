/**
 * The tools Claude Code's config declares: MCP servers in `~/.claude.json` (the user's, and the project's own
 * entry, which wins over `.mcp.json`) and `.mcp.json`; skills, commands and subagents under `~/.claude` and the
 * project's `.claude`; installed plugins. Its settings switch some off (settings.ts). Cursor's `.cursor/mcp.json`
 * is read here too, named as Claude Code names servers.
 */
import * as path from 'node:path';
import type { JsonConfig } from '../../kernel/jsonConfig';
import type { DeclaredServer, ToolConfig, ToolScanContext } from '../adapter';
import { configLocations, projectSettingsFiles, userSettingsFile } from '../configLocations';
import { type MarkdownOwner, agentEntries, commandEntries, skillEntries } from '../markdownTools';
import { serverEntries } from '../mcpServerEntries';
import { switchClaudeServer } from './serverSwitch';
import { startToolScan } from '../toolScan';
import { serverEntryName, serverToolPrefix } from '../toolNames';
import type { ConfigEntry, ScanProblem } from '../toolTypes';
import { installedPluginsFile, pluginEntries } from './plugins';
import { type AgentSettings, claudeJsonProjectPath, readAgentSettings } from './settings';

/** Tools of the user's own config: ~/.claude.json's top-level servers and ~/.claude's markdown tools. */
function globalEntries(
  context: ToolScanContext,
  claudeJson: JsonConfig | undefined,
  settings: AgentSettings,
): ConfigEntry[] {
  const owner: MarkdownOwner = { scope: 'global', prefix: '', disabled: false };
  return [
    ...(claudeJson
      ? serverEntries(claudeJson, ['mcpServers'], {
          scope: 'global',
          isDisabled: (key) => settings.disabledMcpServers.has(key),
        })
      : []),
    ...markdownEntries(context.locations.claudeDir, owner, context.problems),
  ];
}

/** Tools of the project, in Claude Code's precedence: its own entry in ~/.claude.json over `.mcp.json`. */
function projectEntries(
  context: ToolScanContext,
  claudeJson: JsonConfig | undefined,
  settings: AgentSettings,
): ConfigEntry[] {
  const root = context.locations.projectRoot;
  const entries: ConfigEntry[] = [];
  const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, root);
  if (claudeJson && projectEntry)
    entries.push(
      ...serverEntries(claudeJson, [...projectEntry, 'mcpServers'], {
        scope: 'project',
        isDisabled: (key) => settings.disabledMcpServers.has(key),
      }),
    );
  const mcpJson = context.read(path.join(root, '.mcp.json'));
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
      context.problems,
    ),
  );
  return entries;
}

/** Cursor has no adapter (no hooks) and no disable list; its servers are named as Claude Code names them. */
function cursorEntries(context: ToolScanContext): ConfigEntry[] {
  const cursor = context.read(path.join(context.locations.projectRoot, '.cursor', 'mcp.json'));
  const entries = cursor
    ? serverEntries(cursor, ['mcpServers'], { scope: 'project', isDisabled: () => false })
    : [];
  // Cursor reads it, not Claude Code: no agent Context Deck records.
  return entries.map((entry) => ({ ...entry, agent: null }));
}

/** Skills, commands and subagents under a `.claude` folder. */
function markdownEntries(claudeFolder: string, owner: MarkdownOwner, problems: ScanProblem[]): ConfigEntry[] {
  return [
    ...skillEntries(path.join(claudeFolder, 'skills'), owner, problems),
    ...commandEntries(path.join(claudeFolder, 'commands'), owner, problems),
    ...agentEntries(path.join(claudeFolder, 'agents'), owner, problems),
  ];
}

/** ~/.claude.json (when readable) and what Claude Code's settings switch off. */
function claudeConfig(context: ToolScanContext): {
  claudeJson: JsonConfig | undefined;
  settings: AgentSettings;
} {
  const claudeJson = context.read(context.locations.claudeJson);
  return { claudeJson, settings: readAgentSettings(context.locations, claudeJson, context.read) };
}

function entries(context: ToolScanContext): ConfigEntry[] {
  const { claudeJson, settings } = claudeConfig(context);
  return context.scopes.flatMap((scope) => {
    switch (scope) {
      case 'global':
        return globalEntries(context, claudeJson, settings);
      case 'project':
        return [...projectEntries(context, claudeJson, settings), ...cursorEntries(context)];
      case 'plugin':
        return pluginEntries(context.locations, settings, context.read, context.problems);
    }
  });
}

/** Claude Code's own MCP servers, the user's and the project's, as declared servers. */
function declaredServers(context: ToolScanContext): DeclaredServer[] {
  const { claudeJson, settings } = claudeConfig(context);
  return [
    ...globalEntries(context, claudeJson, settings),
    ...projectEntries(context, claudeJson, settings),
  ].flatMap((entry): DeclaredServer[] =>
    entry.type === 'mcp_server' && entry.server !== undefined && entry.scope !== 'plugin'
      ? [
          {
            name: entry.server,
            file: entry.source,
            line: entry.line,
            scope: entry.scope,
            description: entry.description,
            disabled: entry.disabled,
          },
        ]
      : [],
  );
}

export const claudeTools: ToolConfig = {
  switchServer: switchClaudeServer,
  files(projectRoot, userHome) {
    const locations = configLocations({ projectRoot, userHome });
    return [
      locations.claudeJson,
      userSettingsFile(locations),
      ...projectSettingsFiles(projectRoot),
      path.join(projectRoot, '.mcp.json'),
      installedPluginsFile(locations),
    ];
  },
  servers(projectRoot, userHome) {
    const scan = startToolScan(configLocations({ projectRoot, userHome }), ['global', 'project']);
    const servers = declaredServers(scan);
    scan.reportWarnings();
    return { servers, problems: scan.problems };
  },
  mcpToolName: (server, tool) => `${serverToolPrefix(serverEntryName(server))}${tool}`,
  entries,
};
