/**
 * Tool names in the registry. Claude Code's built-ins are plain names (Read, Bash, ...), MCP tools are
 * `mcp__<server>__<tool>` (Codex CLI's too) and plugin MCP tools `mcp__plugin_<plugin>_<server>__<tool>`.
 * A configured MCP server is one registry entry, its tools' common prefix and `*` (`mcp__<server>__*`;
 * opencode's `<server>_*`), standing for all of its tools.
 */

/** Claude Code replaces every character of a server name outside [A-Za-z0-9_-] when it names the tools. */
function toolNameSegment(server: string): string {
  return server.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The registry entry of a configured server. */
export function serverEntryName(server: string): string {
  return `mcp__${toolNameSegment(server)}__*`;
}

/** The server key a plugin's server gets in tool names. */
export function pluginServerKey(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`;
}

/** `mcp__github__*` -> `mcp__github__`: the prefix every tool of that server starts with. */
export function serverToolPrefix(entryName: string): string {
  return entryName.slice(0, -1);
}

function isServerEntryName(name: string): boolean {
  return name.endsWith('*');
}

/** The server segment of an MCP tool name, or undefined for anything else (built-ins, server entries). */
export function mcpServerOf(toolName: string): string | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return match && match[2] !== '*' ? match[1] : undefined;
}

/**
 * The prefix of the configured server a tool name falls under, out of `prefixes` (`mcp__<server>__`,
 * `<server>_`). Tried at each `_`, since server names may contain them themselves.
 */
export function configuredServerPrefix(
  name: string,
  prefixes: { has(prefix: string): boolean },
): string | undefined {
  if (isServerEntryName(name)) return undefined;
  for (let at = name.indexOf('_'); at >= 0; at = name.indexOf('_', at + 1)) {
    const prefix = name.slice(0, at + 1);
    if (prefixes.has(prefix)) return prefix;
  }
  return undefined;
}

/**
 * A name that isn't MCP-shaped is one of the agent's own: Claude Code and Codex prefix MCP tools with
 * `mcp__`, VS Code with `mcp_`; opencode's (`<server>_<tool>`) are told by their configured server.
 */
export function isBuiltinToolName(toolName: string): boolean {
  return !toolName.startsWith('mcp_');
}
