/**
 * Installed Claude Code plugins: `<claudeDir>/plugins/installed_plugins.json` lists them (version 2: each
 * id maps to a list of installs with a scope; version 1: one install object), each install folder holds
 * `.claude-plugin/plugin.json`, `commands/`, `skills/`, `agents/` and `.mcp.json`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentSettings } from './settings';
import { type ConfigLocations, projectKeys } from '../configLocations';
import type { JsonConfig } from '../../kernel/jsonConfig';
import { agentEntries, clipDescription, commandEntries, skillEntries } from '../markdownTools';
import { type ServerOwner, isObject, pluginServerEntries, serverEntries } from '../mcpServerEntries';
import { pluginServerKey } from '../toolNames';
import type { ConfigEntry, ScanProblem } from '../toolTypes';

export function installedPluginsFile(locations: ConfigLocations): string {
  return path.join(locations.claudeDir, 'plugins', 'installed_plugins.json');
}

interface Install {
  id: string;
  installPath: string;
  line: number;
}

/** The install of each plugin that applies here: user-wide ones and those installed for this project. */
function installsFor(registry: JsonConfig, projectRoot: string): Install[] {
  const here = new Set(projectKeys(projectRoot));
  return registry.membersAt(['plugins']).flatMap((member) => {
    const candidates = Array.isArray(member.value) ? member.value : [member.value];
    const install = candidates.find(
      (candidate) =>
        isObject(candidate) &&
        typeof candidate.installPath === 'string' &&
        (typeof candidate.projectPath !== 'string' || here.has(path.resolve(candidate.projectPath))),
    ) as { installPath: string } | undefined;
    return install ? [{ id: member.key, installPath: install.installPath, line: member.line }] : [];
  });
}

export function pluginEntries(
  locations: ConfigLocations,
  settings: AgentSettings,
  read: (file: string) => JsonConfig | undefined,
  problems: ScanProblem[],
): ConfigEntry[] {
  const registryFile = installedPluginsFile(locations);
  const before = problems.length;
  const registry = read(registryFile);
  // Without the list of installed plugins nothing can be told removed: protect the whole scope.
  for (const problem of problems.slice(before)) problem.protectsScope = 'plugin';
  if (!registry) return [];
  return installsFor(registry, locations.projectRoot).flatMap((install) => {
    if (!fs.existsSync(install.installPath)) {
      problems.push({
        file: registryFile,
        message: `plugin ${install.id} is installed at ${install.installPath}, which does not exist`,
      });
      return [];
    }
    return entriesOfPlugin(install, registry, settings, read, problems);
  });
}

function entriesOfPlugin(
  install: Install,
  registry: JsonConfig,
  settings: AgentSettings,
  read: (file: string) => JsonConfig | undefined,
  problems: ScanProblem[],
): ConfigEntry[] {
  const root = install.installPath;
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const manifest = read(manifestFile);
  const declaredName = manifest?.valueAt(['name']);
  const name = typeof declaredName === 'string' && declaredName ? declaredName : install.id.split('@')[0];
  const disabled = settings.enabledPlugins.get(install.id) === false;
  const description = manifest?.valueAt(['description']);
  const owner = { scope: 'plugin' as const, prefix: `${name}:`, disabled };
  // Only a plugin's own files may refer to where the plugin is installed.
  const expand = (text: string) => text.replaceAll('${CLAUDE_PLUGIN_ROOT}', root);
  const servers: ServerOwner = {
    scope: 'plugin',
    serverKey: (key) => pluginServerKey(name, key),
    isDisabled: (key) => disabled || settings.disabledMcpServers.has(`plugin:${name}:${key}`),
    expand,
  };
  const entries: ConfigEntry[] = [
    {
      name,
      type: 'plugin',
      scope: 'plugin',
      source: manifest ? manifestFile : registry.file,
      line: manifest ? 1 : install.line,
      description: clipDescription(typeof description === 'string' ? description : undefined),
      disabled,
    },
    ...commandEntries(path.join(root, 'commands'), owner, problems),
    ...skillEntries(path.join(root, 'skills'), owner, problems),
    ...agentEntries(path.join(root, 'agents'), owner, problems),
  ];
  const mcpJson = read(path.join(root, '.mcp.json'));
  if (mcpJson) entries.push(...pluginServerEntries(mcpJson, servers));
  // plugin.json may declare servers inline or name another file for them.
  const inline = manifest?.valueAt(['mcpServers']);
  if (manifest && isObject(inline)) entries.push(...serverEntries(manifest, ['mcpServers'], servers));
  if (typeof inline === 'string') {
    const named = read(path.resolve(root, expand(inline)));
    if (named) entries.push(...pluginServerEntries(named, servers));
  }
  return entries;
}
