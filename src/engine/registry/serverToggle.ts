/**
 * Disabling and re-enabling an MCP server for one project through Claude Code's own settings: the server
 * goes into `disabledMcpjsonServers` of `<project>/.claude/settings.local.json` (personal, not shared)
 * and re-enabling removes exactly that entry. Planned first, so the user can confirm, then written with a
 * backup. Claude Code's list only covers `.mcp.json` servers; for the others the plan says what to do
 * instead rather than pretending.
 */
import * as path from 'node:path';
import {
  JsoncDocument,
  readSettingsText,
  settingsBackupDir,
  writeSettingsWithBackup,
} from '../agents/jsoncEdit';
import { claudeJsonProjectPath } from '../agents/claudeCode/settings';
import {
  type ConfigLocationOptions,
  type ConfigLocations,
  configLocations,
  displayPath,
  projectSettingsFiles,
  userSettingsFile,
} from '../agents/configLocations';
import { type JsonConfig, readJsonConfig } from '../kernel/jsonConfig';
import { isObject } from '../agents/mcpServerEntries';
import type { RankedTool } from './ranking';
import type { ConfigScan } from '../agents/toolTypes';

export interface ServerToggleOptions extends ConfigLocationOptions {
  /** The server's key as written in the config (`RankedTool.server` of its entry). */
  server: string;
  enabled: boolean;
}

/**
 * `user`: a click on Disable or Re-enable, confirmed with the exact change first; `undo`: the Undo of a
 * change the user has just confirmed, which reverts without asking again.
 */
export type ToggleRequest = 'user' | 'undo';

export type ServerTogglePlan =
  | {
      supported: true;
      server: string;
      enabled: boolean;
      file: string;
      before: string | undefined;
      after: string;
      /** One line per change, for the confirmation; empty when the file already says so. */
      changes: string[];
      /** What else still affects the server, e.g. another file that disables it too. */
      notes: string[];
    }
  | { supported: false; server: string; enabled: boolean; reason: string };

const LIST = 'disabledMcpjsonServers';

function config(file: string): JsonConfig | undefined {
  const read = readJsonConfig(file);
  return 'config' in read ? read.config : undefined;
}

function declares(file: string, jsonPath: string[], server: string): boolean {
  return isObject(config(file)?.valueAt([...jsonPath, server]));
}

export function planProjectServerEnabled(options: ServerToggleOptions): ServerTogglePlan {
  const locations = configLocations(options);
  const { server, enabled } = options;
  const root = locations.projectRoot;
  const shown = (file: string) => displayPath(file, root, locations.userHome);
  const unsupported = (reason: string): ServerTogglePlan => ({ supported: false, server, enabled, reason });

  const mcpJson = path.join(root, '.mcp.json');
  const read = readJsonConfig(mcpJson);
  if ('problem' in read) return unsupported(`${shown(mcpJson)}: ${read.problem}; fix it first`);
  if (!('config' in read) || !isObject(read.config.valueAt(['mcpServers', server]))) {
    const claudeJson = config(locations.claudeJson);
    const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, root);
    if (declares(path.join(root, '.vscode', 'mcp.json'), ['servers'], server))
      return unsupported(
        `${server} is declared in .vscode/mcp.json, and VS Code has no per-project list of disabled servers: stop it from VS Code's MCP server list, or remove the entry from the file`,
      );
    if (declares(path.join(root, '.cursor', 'mcp.json'), ['mcpServers'], server))
      return unsupported(
        `${server} is declared in .cursor/mcp.json, which has no disable list: turn it off in Cursor's MCP settings`,
      );
    if (
      isObject(claudeJson?.valueAt(['mcpServers', server])) ||
      (projectEntry && isObject(claudeJson?.valueAt([...projectEntry, 'mcpServers', server])))
    )
      return unsupported(
        `${server} is declared in ${shown(locations.claudeJson)}, and ${LIST} only covers .mcp.json servers: turn it off with /mcp in Claude Code`,
      );
    if (server.startsWith('plugin_'))
      return unsupported(`${server} comes with a plugin: disable the plugin with /plugin in Claude Code`);
    return unsupported(`${server} is not declared in ${shown(mcpJson)}`);
  }

  const file = path.join(root, '.claude', 'settings.local.json');
  const before = readSettingsText(file);
  const document = new JsoncDocument(before, file);
  const value = document.value;
  if (!isObject(value)) throw new Error(`${file} does not hold a JSON object`);
  const list = value[LIST];
  if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === 'string')))
    throw new Error(`"${LIST}" in ${file} is not a list of server names`);
  const names = (list ?? []) as string[];
  const changes: string[] = [];
  const index = names.indexOf(server);
  if (!enabled && index < 0) {
    if (list === undefined) document.set([LIST], [server]);
    else document.insert([LIST], names.length, server);
    changes.push(`add "${server}" to ${LIST} in ${shown(file)}`);
  } else if (enabled && index >= 0) {
    // The exact inverse of adding: the list goes too when this was its only name.
    document.remove(names.length === 1 ? [LIST] : [LIST, index]);
    changes.push(`remove "${server}" from ${LIST} in ${shown(file)}`);
  }
  const notes = enabled
    ? otherDisablers(locations, server).map((other) => `${server} is still disabled in ${shown(other)}`)
    : [];
  return {
    supported: true,
    server,
    enabled,
    file,
    before,
    after: changes.length ? document.text : (before ?? ''),
    changes,
    notes,
  };
}

/** Files other than settings.local.json whose `disabledMcpjsonServers` names the server. */
function otherDisablers(locations: ConfigLocations, server: string): string[] {
  const root = locations.projectRoot;
  const lists = (source: JsonConfig | undefined, jsonPath: string[]) => {
    const list = source?.valueAt([...jsonPath, LIST]);
    return Array.isArray(list) && list.includes(server);
  };
  const claudeJson = config(locations.claudeJson);
  const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, root);
  return [
    ...(projectEntry && lists(claudeJson, projectEntry) ? [locations.claudeJson] : []),
    ...[userSettingsFile(locations), projectSettingsFiles(root)[0]].filter((file) => lists(config(file), [])),
  ];
}

/** Write a planned change (backup under `home`); refuses when the file changed since it was planned. */
export function writeProjectServerEnabled(
  plan: Extract<ServerTogglePlan, { supported: true }>,
  home: string,
  now = Date.now(),
): string | undefined {
  if (plan.changes.length === 0) return undefined;
  if (readSettingsText(plan.file) !== plan.before)
    throw new Error(`${plan.file} changed after the change was planned; plan it again`);
  return writeSettingsWithBackup(plan.file, plan.after, home, now);
}

/** The modal showing a planned change before it is written; none for an Undo: its inverse was confirmed. */
export function toggleConfirmation(
  plan: Extract<ServerTogglePlan, { supported: true }>,
  request: ToggleRequest,
  projectName: string,
  home: string,
): { message: string; detail: string; button: string } | undefined {
  if (request === 'undo') return undefined;
  const button = plan.enabled ? 'Enable' : 'Disable';
  return {
    message: `${button} the MCP server "${plan.server}" for ${projectName}?`,
    detail: [
      ...plan.changes.map((change) => `• ${change[0].toUpperCase()}${change.slice(1)}`),
      ...plan.notes.map((note) => `Note: ${note}.`),
      '',
      `A backup of the file is written to ${settingsBackupDir(home)} first; nothing else in it changes. Claude Code applies it from its next session. ${
        plan.enabled ? 'Disable it again' : 'Re-enable it'
      } from the dashboard at any time.`,
    ].join('\n'),
    button,
  };
}

/**
 * The ranking with each config tool switched on or off as the settings files say now. The registry holds
 * the switches as the writer last applied them, and a follower window cannot apply a scan (its database is
 * the writer's snapshot); but every window reads the same settings files, so the one that just disabled a
 * server shows it disabled at once, without waiting for the writer to rescan and save.
 */
export function withConfigSwitches(tools: readonly RankedTool[], scan: ConfigScan | undefined): RankedTool[] {
  if (!scan) return [...tools];
  const switches = new Map(scan.entries.map((entry) => [`${entry.scope}\0${entry.name}`, entry.disabled]));
  const apply = (tool: RankedTool): RankedTool => ({
    ...tool,
    disabled: switches.get(`${tool.scope}\0${tool.name}`) ?? tool.disabled,
    ...(tool.children ? { children: tool.children.map(apply) } : {}),
  });
  return tools.map(apply);
}

/** The MCP servers of a ranking by switch: enabled ones sit in the agent's context, disabled ones don't. */
export function serverSwitches(tools: readonly RankedTool[]): { enabled: string[]; disabled: string[] } {
  const servers = tools.filter((tool) => tool.type === 'mcp_server' && tool.server !== null);
  return {
    enabled: servers.filter((tool) => !tool.disabled).map((tool) => tool.server!),
    disabled: servers.filter((tool) => tool.disabled).map((tool) => tool.server!),
  };
}
