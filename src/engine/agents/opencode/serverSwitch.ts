/**
 * Disabling and re-enabling an MCP server for one project in opencode's own config: `"enabled": false` on
 * the server's entry under `mcp` in the project file that declares it (`opencode.json(c)`, or
 * `.opencode/opencode.json(c)`), which opencode reads as the server switched off; re-enabling removes exactly
 * that key. A server declared only in the user's global config is the user's, not the project's: the plan
 * says so rather than editing it.
 */
import * as path from 'node:path';
import type { ServerSwitchPlan } from '../adapter';
import { type ConfigLocations, displayPath } from '../configLocations';
import { JsoncDocument, readSettingsText } from '../jsoncEdit';
import { plannedSwitch, unsupportedSwitch } from '../serverSwitchPlan';
import { declaresServer, readConfig } from '../jsonServers';
import { isObject } from '../jsonValues';
import { opencodeConfigDir } from './pluginInstaller';

const AGENT = 'opencode';
const PROJECT_FILES = [
  'opencode.json',
  'opencode.jsonc',
  '.opencode/opencode.json',
  '.opencode/opencode.jsonc',
];

export function switchOpencodeServer(
  locations: ConfigLocations,
  server: string,
  enabled: boolean,
  env: NodeJS.ProcessEnv = process.env,
): ServerSwitchPlan | undefined {
  const root = locations.projectRoot;
  const shown = (file: string) => displayPath(file, root, locations.userHome);
  const entry = ['mcp', server];
  const file = PROJECT_FILES.map((name) => path.join(root, name)).find((candidate) =>
    declaresServer(candidate, ['mcp'], server),
  );
  if (!file) {
    const global = opencodeConfigDir(locations.userHome, env);
    const declaredGlobally = ['config.json', 'opencode.json', 'opencode.jsonc']
      .map((name) => path.join(global, name))
      .find((candidate) => declaresServer(candidate, ['mcp'], server));
    return declaredGlobally
      ? unsupportedSwitch(
          server,
          enabled,
          `${server} is declared in ${shown(declaredGlobally)}, opencode's config for all your projects: set "enabled": ${enabled} on it there`,
        )
      : undefined;
  }
  const problem = readConfig(file).problem;
  if (problem !== undefined)
    return unsupportedSwitch(server, enabled, `${shown(file)}: ${problem}; fix it first`);
  const before = readSettingsText(file);
  const document = new JsoncDocument(before, file);
  const mcp = isObject(document.value) ? document.value.mcp : undefined;
  const declared = isObject(mcp) ? mcp[server] : undefined;
  if (!isObject(declared)) return undefined;
  const changes: string[] = [];
  if (!enabled && declared.enabled !== false) {
    document.set([...entry, 'enabled'], false);
    changes.push(`set "enabled": false on "${server}" in ${shown(file)}`);
  } else if (enabled && declared.enabled === false) {
    // The exact inverse of switching it off: the key goes (opencode's default is on).
    document.remove([...entry, 'enabled']);
    changes.push(`remove "enabled": false from "${server}" in ${shown(file)}`);
  }
  return plannedSwitch({ server, enabled, agent: AGENT, file, before, edited: document.text, changes });
}
