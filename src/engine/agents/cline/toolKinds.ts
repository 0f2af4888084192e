/**
 * Cline's tools in neutral form. Names and parameters are Cline's own (cline/cline v3.89.2
 * `apps/vscode/src/shared/tools.ts` ClineDefaultTool; each tool's parameters are strings, as its hooks send
 * them in `parameters` and its XML tool calls write them). An MCP tool is called through `use_mcp_tool` with
 * `server_name` and `tool_name`; with native tool calling the model calls `<uid>0mcp0<tool>`
 * (`shared/mcp.ts` CLINE_MCP_TOOL_IDENTIFIER), where the uid is a key Cline makes up for the server in each
 * window (`McpHub.getMcpServerKey`): its hooks already name the server, its history files only the key.
 * Light on purpose: the recorder's payload reader imports this.
 */
import { type Json, isObject, jsonText as str } from '../jsonValues';
import type { ToolCall, ToolInput, ToolKind, ToolOutcome } from '../types';

const BUILTIN_KINDS: Readonly<Record<string, ToolKind>> = {
  execute_command: 'shell',
  replace_in_file: 'edit',
  apply_patch: 'edit',
  write_to_file: 'write',
  read_file: 'read',
  list_files: 'read',
  list_code_definition_names: 'read',
  search_files: 'search',
  web_fetch: 'fetch',
  web_search: 'web-search',
  browser_action: 'fetch',
  use_mcp_tool: 'mcp',
  access_mcp_resource: 'mcp',
  use_subagents: 'subagent',
  new_task: 'other',
  // Cline 4.x, on its SDK (v4.1.12 `sdk/packages/core/src/extensions/tools/constants.ts` DefaultToolNames).
  read_files: 'read',
  search_codebase: 'search',
  run_commands: 'shell',
  fetch_web_content: 'fetch',
  editor: 'edit',
};

/** The tools Cline has, for telling its XML tool calls in an assistant's text from other tags. */
export const CLINE_TOOL_NAMES: readonly string[] = [
  ...Object.keys(BUILTIN_KINDS),
  'ask_followup_question',
  'attempt_completion',
  'load_mcp_documentation',
  'plan_mode_respond',
  'act_mode_respond',
  'focus_chain',
  'condense',
  'summarize_task',
  'report_bug',
  'new_rule',
  'generate_explanation',
  'use_skill',
  'skills',
  'ask_question',
  'submit_and_exit',
];

const NATIVE_MCP = '0mcp0';

/** The name Context Deck gives tool `tool` of Cline's MCP server `server`. */
export function clineMcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** A native MCP call's server key and tool (`<uid>0mcp0<tool>`); undefined for any other name. */
function nativeMcpCall(name: string): { key: string; tool: string } | undefined {
  const at = name.indexOf(NATIVE_MCP);
  if (at <= 0 || at + NATIVE_MCP.length >= name.length) return undefined;
  return { key: name.slice(0, at), tool: name.slice(at + NATIVE_MCP.length) };
}

/**
 * A 4.x MCP call's server and tool: the SDK names it `<server>__<tool>` (v4.1.12
 * `sdk/packages/core/src/extensions/mcp/name-transform.ts`; a name over 64 characters is cut and hashed,
 * which keeps the server's part). Undefined for Cline's own tools, which never hold `__`.
 */
function sdkMcpCall(name: string): { server: string; tool: string } | undefined {
  const at = name.indexOf('__');
  if (at <= 0 || at + 2 >= name.length || Object.hasOwn(BUILTIN_KINDS, name)) return undefined;
  return { server: name.slice(0, at), tool: name.slice(at + 2) };
}

/** `------- SEARCH … ======= … +++++++ REPLACE` blocks (older: `<<<<<<< SEARCH … >>>>>>> REPLACE`). */
const DIFF_BLOCK = /^(?:-{3,}|<{3,}) SEARCH\r?\n([\s\S]*?)^={3,}\r?\n([\s\S]*?)^(?:\+{3,}|>{3,}) REPLACE/gm;

function editsOf(diff: string | undefined): ToolInput['edits'] {
  if (diff === undefined) return undefined;
  const edits = [...diff.matchAll(DIFF_BLOCK)].map((match) => ({ before: match[1], after: match[2] }));
  return edits.length ? edits : undefined;
}

/**
 * A 4.x list parameter: an array in a `tool_use` input, the JSON of one in hook `parameters` (the SDK
 * stringifies what is not a string, `hooks-adapter.ts` toStringRecord), or a lone string.
 */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const text = str(value);
  if (text === undefined) return [];
  if (!text.startsWith('[')) return [text];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [text];
  } catch {
    return [text];
  }
}

/** The strings of a list, or each entry's `key` where the entries are objects. */
function textsOf(value: unknown, key: string): string[] {
  return listOf(value).flatMap((entry) => {
    const text = isObject(entry) ? str(entry[key]) : str(entry);
    return text === undefined ? [] : [text];
  });
}

function inputOf(name: string, params: Json): ToolInput {
  const input: ToolInput = {};
  const path = str(params.path) ?? str(params.absolutePath) ?? textsOf(params.files, 'path')[0];
  if (path !== undefined) input.path = path;
  switch (name) {
    case 'execute_command':
      input.command = str(params.command);
      break;
    case 'write_to_file':
      input.content = str(params.content);
      break;
    case 'replace_in_file':
      input.edits = editsOf(str(params.diff));
      break;
    case 'search_files':
      input.query = str(params.regex);
      break;
    case 'web_fetch':
    case 'browser_action':
      input.url = str(params.url);
      break;
    case 'web_search':
      input.query = str(params.query);
      break;
    case 'run_commands':
      input.command = textsOf(params.commands, 'command').join('\n') || str(params.command);
      break;
    case 'search_codebase':
      input.query = textsOf(params.queries, 'query').join('\n') || undefined;
      break;
    case 'fetch_web_content':
      input.url = textsOf(params.requests, 'url')[0];
      break;
    case 'editor': {
      // `old_text` absent: the file is created with `new_text` (`schemas.ts` EditFileInputSchema).
      const before = str(params.old_text);
      const after = str(params.new_text);
      if (before !== undefined && after !== undefined) input.edits = [{ before, after }];
      else input.content = after;
      break;
    }
  }
  for (const key of Object.keys(input) as Array<keyof ToolInput>)
    if (input[key] === undefined) delete input[key];
  return input;
}

/**
 * A call of `name` with `params` (hook `parameters`, a `tool_use` block's `input`, an XML call's tags);
 * `servers` resolves a native call's server key to its name, where the caller knows it.
 */
export function clineToolCall(
  name: string,
  params: unknown,
  useId?: string,
  servers?: ReadonlyMap<string, string>,
): ToolCall {
  const args = isObject(params) ? params : {};
  const native = nativeMcpCall(name);
  if (native) {
    const server = servers?.get(native.tool);
    return {
      name: server ? clineMcpToolName(server, native.tool) : name,
      kind: 'mcp',
      ...(server ? { server } : {}),
      ...(useId ? { useId } : {}),
      input: {},
    };
  }
  const sdkMcp = sdkMcpCall(name);
  if (sdkMcp || name === 'use_mcp_tool' || name === 'access_mcp_resource') {
    const server = sdkMcp?.server ?? str(args.server_name);
    const tool = sdkMcp?.tool ?? (name === 'use_mcp_tool' ? str(args.tool_name) : undefined);
    return {
      name: server && tool ? clineMcpToolName(server, tool) : name,
      kind: 'mcp',
      ...(server ? { server } : {}),
      ...(useId ? { useId } : {}),
      input: {},
    };
  }
  return {
    name,
    kind: BUILTIN_KINDS[name] ?? 'other',
    ...(useId ? { useId } : {}),
    input: inputOf(name, args),
  };
}

/** "Command failed with exit code N." (`CommandOrchestrator`), which Cline 3.x reports as a success. */
const COMMAND_FAILED = /^Command failed with exit code (-?\d+)/;
/**
 * 4.x `run_commands`: a JSON list of `{query, result, error?, success}`, one failed command's `error` being
 * "Command exited with code N" (v4.1.12 `sdk/packages/core/src/extensions/tools/definitions.ts`
 * executeShellCommands, `executors/bash.ts` CommandExitError), in a call the SDK counts as no error.
 */
const COMMAND_EXITED = /"error"\s*:\s*"Command exited with code (-?\d+)"/;
/** `formatResponse.toolError` and `toolDenied` (`core/prompts/responses.ts`). */
const TOOL_ERROR = /^The tool execution failed with the following error:/;
const TOOL_DENIED = /^The user denied this operation/;

/**
 * How a call went, from its result text and, from a hook, its `success` (absent means false: proto3 JSON
 * leaves default values out). A command that exited non-zero is a failure, whatever `success` says.
 */
export function clineOutcome(result: string | undefined, success: boolean | undefined): ToolOutcome {
  const text = result ?? '';
  const exit = COMMAND_FAILED.exec(text) ?? COMMAND_EXITED.exec(text);
  const outcome: ToolOutcome = { failed: false };
  if (exit) {
    outcome.failed = true;
    outcome.exitCode = Number(exit[1]);
  } else if (/^Command executed successfully \(exit code 0\)/.test(text)) {
    outcome.exitCode = 0;
  }
  if (TOOL_DENIED.test(text)) outcome.notRun = 'declined';
  else if (TOOL_ERROR.test(text) || success === false) outcome.failed = true;
  if (outcome.failed) outcome.error = text.slice(0, 2000);
  else if (text) outcome.output = text.slice(0, 4000);
  return outcome;
}
