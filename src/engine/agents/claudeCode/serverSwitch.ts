/**
 * Disabling and re-enabling an MCP server for one project through Claude Code's own settings: the server
 * goes into `disabledMcpjsonServers` of `<project>/.claude/settings.local.json` (personal, not shared)
 * and re-enabling removes exactly that entry. Claude Code's list only covers `.mcp.json` servers; for its
 * others (`~/.claude.json`, plugins) and for Cursor's file, which it scans, the plan says what to do instead
 * rather than pretending.
 */
import * as path from 'node:path';
import type { ServerSwitchPlan } from '../adapter';
import {
  type ConfigLocations,
  displayPath,
  projectSettingsFiles,
  userSettingsFile,
} from '../configLocations';
import { JsoncDocument, readSettingsText } from '../jsoncEdit';
import { plannedSwitch, unsupportedSwitch } from '../serverSwitchPlan';
import { declaresServer, readConfig } from '../jsonServers';
import { isObject } from '../mcpServerEntries';
import { claudeJsonProjectPath } from './settings';
import type { JsonConfig } from '../../kernel/jsonConfig';

const LIST = 'disabledMcpjsonServers';
const AGENT = 'Claude Code';

export function switchClaudeServer(
  locations: ConfigLocations,
  server: string,
  enabled: boolean,
): ServerSwitchPlan | undefined {
  const root = locations.projectRoot;
  const shown = (file: string) => displayPath(file, root, locations.userHome);
  const unsupported = (reason: string) => unsupportedSwitch(server, enabled, reason);

  const mcpJson = path.join(root, '.mcp.json');
  const read = readConfig(mcpJson);
  if (read.problem !== undefined) return unsupported(`${shown(mcpJson)}: ${read.problem}; fix it first`);
  if (!read.config || !isObject(read.config.valueAt(['mcpServers', server]))) {
    const claudeJson = readConfig(locations.claudeJson).config;
    const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, root);
    if (declaresServer(path.join(root, '.cursor', 'mcp.json'), ['mcpServers'], server))
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
    return undefined;
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
  return plannedSwitch({
    server,
    enabled,
    agent: AGENT,
    file,
    before,
    edited: document.text,
    changes,
    notes,
  });
}

/** Files other than settings.local.json whose `disabledMcpjsonServers` names the server. */
function otherDisablers(locations: ConfigLocations, server: string): string[] {
  const root = locations.projectRoot;
  const lists = (source: JsonConfig | undefined, jsonPath: string[]) => {
    const list = source?.valueAt([...jsonPath, LIST]);
    return Array.isArray(list) && list.includes(server);
  };
  const claudeJson = readConfig(locations.claudeJson).config;
  const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, root);
  return [
    ...(projectEntry && lists(claudeJson, projectEntry) ? [locations.claudeJson] : []),
    ...[userSettingsFile(locations), projectSettingsFiles(root)[0]].filter((file) =>
      lists(readConfig(file).config, []),
    ),
  ];
}
