/** MCP server declarations in JSON config files, as one registry entry per server. */
import type { JSONPath } from 'jsonc-parser';
import { redactText } from '../redact';
import type { JsonConfig, JsonMember } from '../kernel/jsonConfig';
import { clipDescription } from './markdownTools';
import { serverEntryName } from './toolNames';
import type { ToolScope } from '../../shared/tools';
import type { ConfigEntry } from './toolTypes';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export interface ServerOwner {
  scope: ToolScope;
  /** The server key used in tool names (plugins namespace theirs). */
  serverKey?: (key: string) => string;
  isDisabled: (key: string) => boolean;
  /** Variable expansion the agent applies in this file (only `${CLAUDE_PLUGIN_ROOT}` in a plugin's). */
  expand?: (text: string) => string;
}

/** "stdio: npx -y server" or "http: https://host/mcp": enough to recognise a server at a glance. */
function describe(value: unknown, expand: (text: string) => string): string | undefined {
  if (!isObject(value)) return undefined;
  const url = typeof value.url === 'string' ? value.url : undefined;
  const args = Array.isArray(value.args) ? value.args.filter((arg) => typeof arg === 'string') : [];
  const command = typeof value.command === 'string' ? [value.command, ...args].join(' ') : undefined;
  const transport = typeof value.type === 'string' ? value.type : url ? 'http' : 'stdio';
  const target = url ?? command;
  // Arguments and URLs may carry credentials (a database URL, `--api-key ...`): the description is shown.
  return clipDescription(target ? redactText(`${transport}: ${expand(target)}`).text : transport);
}

/** The servers of the object at `jsonPath` (e.g. `mcpServers`, or `servers` in VS Code's file). */
export function serverEntries(config: JsonConfig, jsonPath: JSONPath, owner: ServerOwner): ConfigEntry[] {
  return entriesOf(config, config.membersAt(jsonPath), owner);
}

function entriesOf(config: JsonConfig, members: JsonMember[], owner: ServerOwner): ConfigEntry[] {
  const expand = owner.expand ?? ((text: string) => text);
  return members.map((member) => {
    const server = owner.serverKey ? owner.serverKey(member.key) : member.key;
    return {
      name: serverEntryName(server),
      type: 'mcp_server' as const,
      scope: owner.scope,
      source: config.file,
      line: member.line,
      server,
      description: describe(member.value, expand),
      disabled: owner.isDisabled(member.key),
    };
  });
}

/**
 * A plugin's `.mcp.json` lists servers under `mcpServers` or, in many published plugins, at the top
 * level; a top-level member counts as a server when it looks like one.
 */
export function pluginServerEntries(config: JsonConfig, owner: ServerOwner): ConfigEntry[] {
  if (isObject(config.valueAt(['mcpServers']))) return serverEntries(config, ['mcpServers'], owner);
  const looksLikeServer = (value: unknown) =>
    isObject(value) && (typeof value.command === 'string' || typeof value.url === 'string');
  return entriesOf(
    config,
    config.membersAt([]).filter((member) => looksLikeServer(member.value)),
    owner,
  );
}
