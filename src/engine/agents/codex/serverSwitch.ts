/**
 * Disabling and re-enabling an MCP server for one project in Codex's own config: `enabled = false` in the
 * server's `[mcp_servers.<name>]` table of the project's `.codex/config.toml` (developers.openai.com/codex/mcp:
 * a server declared but off), inserted under its header; re-enabling removes exactly that line. No TOML
 * library writes a file back as it was, so the edit is one line of text, checked by parsing the result: a
 * server declared another way (an inline table, dotted keys) gets a plan that says what to do instead.
 */
import * as path from 'node:path';
import type { ServerSwitchPlan } from '../adapter';
import { type ConfigLocations, displayPath } from '../configLocations';
import { readSettingsText } from '../jsoncEdit';
import { plannedSwitch, unsupportedSwitch } from '../serverSwitchPlan';
import { serverHeaderLine } from './serverLines';
import { codexHome } from './paths';
import { type Table, isTable, parseToml } from './toml';

const AGENT = 'Codex';
const OFF = 'enabled = false';

function serverOf(text: string, server: string): Table | undefined {
  try {
    const config = parseToml(text);
    const servers = isTable(config) ? config.mcp_servers : undefined;
    const entry = isTable(servers) ? servers[server] : undefined;
    return isTable(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

export function switchCodexServer(
  locations: ConfigLocations,
  server: string,
  enabled: boolean,
  env: NodeJS.ProcessEnv = process.env,
): ServerSwitchPlan | undefined {
  const root = locations.projectRoot;
  const shown = (file: string) => displayPath(file, root, locations.userHome);
  const unsupported = (reason: string) => unsupportedSwitch(server, enabled, reason);
  const file = path.join(root, '.codex', 'config.toml');
  const before = readSettingsText(file);
  const declared = before === undefined ? undefined : serverOf(before, server);
  if (!declared) {
    const global = path.join(codexHome(env, locations.userHome), 'config.toml');
    const text = path.resolve(global) === path.resolve(file) ? undefined : readSettingsText(global);
    return text !== undefined && serverOf(text, server)
      ? unsupported(
          `${server} is declared in ${shown(global)}, Codex's config for all your projects: set ${OFF} in its table there`,
        )
      : undefined;
  }
  const text = before!;
  const changes: string[] = [];
  const lines = text.split('\n');
  const header = serverHeaderLine(text, server);
  let edited = text;
  if (!enabled && declared.enabled !== false) {
    if (header === undefined || declared.enabled !== undefined)
      return unsupported(
        `${server} is not declared under its own [mcp_servers.${server}] header in ${shown(file)}: set ${OFF} on it there`,
      );
    edited = [...lines.slice(0, header), OFF, ...lines.slice(header)].join('\n');
    changes.push(`add ${OFF} to [mcp_servers.${server}] in ${shown(file)}`);
  } else if (enabled && declared.enabled === false) {
    // The exact inverse of switching it off: the line under the header goes.
    if (header === undefined || lines[header]?.trim() !== OFF)
      return unsupported(
        `${server} is switched off by a line Context Deck did not write in ${shown(file)}: change it there`,
      );
    edited = [...lines.slice(0, header), ...lines.slice(header + 1)].join('\n');
    changes.push(`remove ${OFF} from [mcp_servers.${server}] in ${shown(file)}`);
  }
  // The edit is checked as Codex will read it: the server switched as asked, everything else as it was.
  if (changes.length && (serverOf(edited, server)?.enabled ?? true) !== enabled)
    return unsupported(`${shown(file)} could not be edited safely: set ${OFF} on ${server} there`);
  return plannedSwitch({ server, enabled, agent: AGENT, file, before, edited, changes });
}
