/**
 * The tool names VS Code's agent (the "Local" harness) puts in `tool_name`: the name the model called, i.e. the
 * Copilot extension's `ToolName` values (`read_file`, `replace_string_in_file`...) and VS Code's core tool ids
 * (`run_in_terminal`, `runSubagent`, `fetch_webpage`...). MCP tools are `mcp_<server prefix>_<tool>`.
 * Sources: microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts and
 * src/extension/prompts/node/panel/toolCalling.tsx (hooks get `props.toolCall.name`); microsoft/vscode
 * terminal tool ids (TerminalToolId) and runSubagentTool.ts.
 */
import type { ToolKind } from '../types';

const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  // Edits: the Copilot extension's edit tools.
  replace_string_in_file: 'edit',
  multi_replace_string_in_file: 'edit',
  insert_edit_into_file: 'edit',
  apply_patch: 'edit',
  edit_notebook_file: 'edit',
  edit_files: 'edit',
  create_file: 'write',
  read_file: 'read',
  list_dir: 'read',
  view_image: 'read',
  read_project_structure: 'read',
  read_notebook_cell_output: 'read',
  copilot_getNotebookSummary: 'read',
  // VS Code's terminal tools (TerminalToolId); reading a terminal's output is part of running it.
  run_in_terminal: 'shell',
  get_terminal_output: 'shell',
  await_terminal: 'shell',
  send_to_terminal: 'shell',
  kill_terminal: 'shell',
  file_search: 'search',
  grep_search: 'search',
  semantic_search: 'search',
  search_workspace_symbols: 'search',
  list_code_usages: 'search',
  test_search: 'search',
  get_search_view_results: 'search',
  github_repo: 'search',
  tool_search: 'search',
  fetch_webpage: 'fetch',
  // The Web Search for Copilot extension's tool (not built in).
  'vscode-websearchforcopilot_webSearch': 'web-search',
  runSubagent: 'subagent',
  search_subagent: 'subagent',
  execution_subagent: 'subagent',
  // The extension's contributed ids and the names VS Code's docs and tool references use (#editFiles...):
  // not what the Local harness sends today, but cheap to know if an older or another build sends them.
  copilot_replaceString: 'edit',
  copilot_multiReplaceString: 'edit',
  copilot_insertEdit: 'edit',
  copilot_applyPatch: 'edit',
  copilot_editNotebook: 'edit',
  copilot_createFile: 'write',
  copilot_readFile: 'read',
  copilot_listDirectory: 'read',
  copilot_findFiles: 'search',
  copilot_findTextInFiles: 'search',
  copilot_searchCodebase: 'search',
  copilot_fetchWebPage: 'fetch',
  editFiles: 'edit',
  createFile: 'write',
  readFile: 'read',
  runInTerminal: 'shell',
  runTerminalCommand: 'shell',
  fileSearch: 'search',
  textSearch: 'search',
  codebase: 'search',
  fetchWebPage: 'fetch',
  fetch: 'fetch',
};

/** Tools that work on a notebook rather than a source file. */
const NOTEBOOK_TOOLS = new Set([
  'edit_notebook_file',
  'run_notebook_cell',
  'read_notebook_cell_output',
  'copilot_getNotebookSummary',
  'create_new_jupyter_notebook',
  'copilot_editNotebook',
]);

/**
 * Names only VS Code's agent uses: enough on their own to tell its payload from Claude Code's (PascalCase
 * names) and Codex's (which shares `apply_patch`, `read_file`, `list_dir`, `view_image`, so those are left out).
 */
const DISTINCTIVE = new Set([
  'replace_string_in_file',
  'multi_replace_string_in_file',
  'insert_edit_into_file',
  'create_file',
  'edit_notebook_file',
  'run_in_terminal',
  'get_terminal_output',
  'file_search',
  'grep_search',
  'semantic_search',
  'fetch_webpage',
  'runSubagent',
  'search_subagent',
  'manage_todo_list',
  'get_errors',
  'get_changed_files',
]);

/** MCP tool ids are `mcp_` + a server prefix; Claude Code and Codex write `mcp__server__tool`. */
function isVscodeMcpName(name: string): boolean {
  return name.startsWith('mcp_') && !name.startsWith('mcp__') && name.length > 4;
}

export function vscodeToolKind(name: string): ToolKind {
  if (Object.prototype.hasOwnProperty.call(TOOL_KINDS, name)) return TOOL_KINDS[name];
  return isVscodeMcpName(name) ? 'mcp' : 'other';
}

export function isNotebookTool(name: string): boolean {
  return NOTEBOOK_TOOLS.has(name);
}

/** Whether a tool name alone says the payload is VS Code's. */
export function isDistinctiveVscodeTool(name: string): boolean {
  return DISTINCTIVE.has(name) || isVscodeMcpName(name);
}

/** VS Code's limits for MCP tool ids (microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpTypes.ts). */
const MCP_PREFIX = 'mcp_';
const MCP_MAX_PREFIX_LENGTH = 18;
const MCP_MAX_LENGTH = 64;

/**
 * The prefix VS Code gives the tools of MCP server `server` (McpPrefixGenerator in mcpServer.ts): the name in
 * lower case, runs of other characters than [a-z0-9_.-] as `_`, cut to 13 characters. A second server with
 * the same prefix gets `2_`, `3_`..., which only VS Code knows, so this is the first server's prefix.
 */
function vscodeMcpPrefix(server: string): string {
  const safe = server
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, MCP_MAX_PREFIX_LENGTH - MCP_PREFIX.length - 1);
  return `${MCP_PREFIX}${safe}_`;
}

/** The name VS Code's agent gives tool `tool` of MCP server `server` (McpTool's id: dots become `_`, ≤64). */
export function vscodeMcpToolName(server: string, tool: string): string {
  return (vscodeMcpPrefix(server) + tool).replaceAll('.', '_').slice(0, MCP_MAX_LENGTH);
}
