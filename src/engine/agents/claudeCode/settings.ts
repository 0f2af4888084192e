/**
 * What Claude Code's settings switch off: `.mcp.json` servers rejected in `disabledMcpjsonServers`, other
 * servers toggled off in `/mcp` (`disabledMcpServers` of the project's entry in ~/.claude.json), plugins
 * set to false in `enabledPlugins`.
 */
import {
  type ConfigLocations,
  projectKeys,
  projectSettingsFiles,
  userSettingsFile,
} from '../configLocations';
import type { JsonConfig } from '../../kernel/jsonConfig';
import { isObject } from '../mcpServerEntries';

export interface AgentSettings {
  /** `.mcp.json` server key -> the file that disables it. */
  disabledMcpjsonServers: Map<string, string>;
  /** Servers of other files turned off for this project in Claude Code's `/mcp` menu. */
  disabledMcpServers: Set<string>;
  /** Plugin id (`name@marketplace`) -> enabled; the most specific settings file wins. */
  enabledPlugins: Map<string, boolean>;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The project's entry in ~/.claude.json, under whichever key (given or real path) Claude Code used. */
export function claudeJsonProjectPath(claudeJson: JsonConfig, projectRoot: string): string[] | undefined {
  const key = projectKeys(projectRoot).find((candidate) =>
    isObject(claudeJson.valueAt(['projects', candidate])),
  );
  return key === undefined ? undefined : ['projects', key];
}

/**
 * `read` parses a settings file (reporting its problems), `claudeJson` is ~/.claude.json when readable.
 * Settings files are read least specific first so that later ones override plugin switches.
 */
export function readAgentSettings(
  locations: ConfigLocations,
  claudeJson: JsonConfig | undefined,
  read: (file: string) => JsonConfig | undefined,
): AgentSettings {
  const settings: AgentSettings = {
    disabledMcpjsonServers: new Map(),
    disabledMcpServers: new Set(),
    enabledPlugins: new Map(),
  };
  const projectEntry = claudeJson && claudeJsonProjectPath(claudeJson, locations.projectRoot);
  if (claudeJson && projectEntry) {
    for (const server of strings(claudeJson.valueAt([...projectEntry, 'disabledMcpjsonServers'])))
      settings.disabledMcpjsonServers.set(server, claudeJson.file);
    for (const server of strings(claudeJson.valueAt([...projectEntry, 'disabledMcpServers'])))
      settings.disabledMcpServers.add(server);
  }
  for (const file of [userSettingsFile(locations), ...projectSettingsFiles(locations.projectRoot)]) {
    const config = read(file);
    if (!config) continue;
    for (const server of strings(config.valueAt(['disabledMcpjsonServers'])))
      if (!settings.disabledMcpjsonServers.has(server)) settings.disabledMcpjsonServers.set(server, file);
    const plugins = config.valueAt(['enabledPlugins']);
    if (isObject(plugins))
      for (const [id, enabled] of Object.entries(plugins))
        if (typeof enabled === 'boolean') settings.enabledPlugins.set(id, enabled);
  }
  return settings;
}
