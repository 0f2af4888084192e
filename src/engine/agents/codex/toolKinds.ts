/**
 * Codex CLI's tool names, as its hook payloads and rollout files give them. Hooks name the shell tool `Bash`
 * (`HookToolName::bash()`, whatever the model called: shell, shell_command, exec_command, local_shell) and
 * keep the model-visible name for the rest (`apply_patch`, `mcp__<server>__<tool>`); rollouts keep the
 * model-visible names. MCP tools are `mcp__<server>__<tool>` with every character outside [A-Za-z0-9_]
 * replaced by `_` (codex-rs/codex-mcp `qualified_mcp_tool_name_prefix`, `sanitize_responses_api_tool_name`);
 * newer rollouts split that into `namespace: "mcp__<server>__"` and `name: "<tool>"`, and releases before the
 * `mcp__` prefix wrote `<server>__<tool>`.
 */
import type { ToolKind } from '../types';

const BUILTIN_KINDS: Readonly<Record<string, ToolKind>> = {
  Bash: 'shell',
  shell: 'shell',
  shell_command: 'shell',
  exec_command: 'shell',
  local_shell: 'shell',
  local_shell_call: 'shell',
  'container.exec': 'shell',
  // Polls or feeds a process exec_command left running: part of the shell tool, not a command of its own.
  write_stdin: 'shell',
  apply_patch: 'edit',
  read_file: 'read',
  list_dir: 'read',
  view_image: 'read',
  grep_files: 'search',
  tool_search: 'search',
  web_search: 'web-search',
  spawn_agent: 'subagent',
};

/** Characters the Responses API accepts in a tool name; Codex replaces the others with `_`. */
function sanitise(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_]/g, '_');
  return clean === '' ? '_' : clean;
}

/** The name Codex gives tool `tool` of MCP server `server` (names past 128 characters it also shortens). */
export function codexMcpToolName(server: string, tool: string): string {
  return sanitise(`mcp__${server}__${tool}`);
}

/** The MCP server of a tool name, or undefined for a built-in. */
export function codexMcpServer(name: string): string | undefined {
  const prefixed = /^mcp__(.+?)__(.+)$/.exec(name);
  if (prefixed) return prefixed[1];
  // `<server>__<tool>`: how Codex named MCP tools before it added the `mcp__` prefix.
  const legacy = /^([A-Za-z0-9_-]+?)__([A-Za-z0-9_-]+)$/.exec(name);
  return legacy && !(name in BUILTIN_KINDS) ? legacy[1] : undefined;
}

export function codexToolKind(name: string): ToolKind {
  const builtin = BUILTIN_KINDS[name];
  if (builtin) return builtin;
  return codexMcpServer(name) !== undefined ? 'mcp' : 'other';
}

/**
 * The full name of a rollout `function_call`: an MCP namespace (`mcp__<server>__`) joined to the tool's
 * name, as hooks name it. Other namespaces (an app's dynamic tools) are not part of the name.
 */
export function qualifiedName(name: string, namespace: unknown): string {
  return typeof namespace === 'string' && namespace.endsWith('__') && !name.startsWith(namespace)
    ? `${namespace}${name}`
    : name;
}
