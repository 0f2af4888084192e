/**
 * opencode's tools in neutral form. Names and argument fields are opencode's own
 * (packages/opencode/src/tool/*.ts: `Tool.define("<id>", { parameters })`); MCP tools are named
 * `<server>_<tool>` with every character outside [a-zA-Z0-9_-] replaced by `_` (packages/opencode/src/mcp).
 * Light on purpose: the recorder's payload reader imports this.
 */
import { type Json, isObject, jsonText as str } from '../jsonValues';
import type { ToolCall, ToolInput, ToolKind, ToolOutcome } from '../types';

/** Built-in tool ids and what they do. `list` is opencode's directory listing; `codesearch` searches code on the web. */
const BUILTIN_TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  bash: 'shell',
  edit: 'edit',
  multiedit: 'edit',
  patch: 'edit',
  apply_patch: 'edit',
  write: 'write',
  read: 'read',
  grep: 'search',
  glob: 'search',
  list: 'search',
  ls: 'search',
  codesearch: 'web-search',
  websearch: 'web-search',
  webfetch: 'fetch',
  task: 'subagent',
  todowrite: 'other',
  todoread: 'other',
  skill: 'other',
  question: 'other',
  lsp: 'other',
  batch: 'other',
  plan_enter: 'other',
  plan_exit: 'other',
  invalid: 'other',
};

/** How opencode sanitises MCP server and tool names into a tool id. */
function sanitizeMcpName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

export function mcpToolName(server: string, tool: string): string {
  return `${sanitizeMcpName(server)}_${sanitizeMcpName(tool)}`;
}

/**
 * The MCP server of a tool id, if it is one. The id alone is ambiguous (server and tool names may both hold
 * `_`), so known server names are tried first, longest first; otherwise everything before the first `_`.
 */
export function mcpServerOf(name: string, knownServers: readonly string[] = []): string | undefined {
  if (name in BUILTIN_TOOL_KINDS) return undefined;
  const known = knownServers
    .map((server) => ({ server, prefix: `${sanitizeMcpName(server)}_` }))
    .sort((a, b) => b.prefix.length - a.prefix.length)
    .find(({ prefix }) => name.startsWith(prefix) && name.length > prefix.length);
  if (known) return known.server;
  const cut = name.indexOf('_');
  return cut > 0 && cut < name.length - 1 ? name.slice(0, cut) : undefined;
}

/** The files an `apply_patch`/`patch` text touches (`*** Add File:`, `*** Update File:`, `*** Delete File:`). */
function patchFiles(patchText: string): string[] {
  return [...patchText.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((match) =>
    match[1].trim(),
  );
}

function editsOf(input: Json): ToolInput['edits'] {
  const edits = Array.isArray(input.edits) ? input.edits.filter(isObject) : [input];
  const mapped = edits
    .filter((edit) => typeof edit.oldString === 'string' || typeof edit.newString === 'string')
    .map((edit) => ({ before: str(edit.oldString), after: str(edit.newString) }));
  return mapped.length ? mapped : undefined;
}

/** The arguments the memory and the context items use, from opencode's field names. */
function toolInput(name: string, args: unknown): ToolInput {
  const input = isObject(args) ? args : {};
  const path = str(input.filePath) ?? str(input.path);
  switch (name) {
    case 'bash':
      return { command: str(input.command) };
    case 'edit':
    case 'multiedit':
      return { path, edits: editsOf(input) };
    case 'patch':
    case 'apply_patch': {
      const text = str(input.patchText);
      return { path: (text ? patchFiles(text)[0] : undefined) ?? path };
    }
    case 'write':
      return { path, content: str(input.content) };
    case 'read':
    case 'list':
    case 'ls':
      return { path };
    case 'grep':
    case 'glob':
      return { query: str(input.pattern), path };
    case 'websearch':
    case 'codesearch':
      return { query: str(input.query) };
    case 'webfetch':
      return { url: str(input.url), prompt: str(input.prompt) };
    case 'task':
      return { prompt: str(input.prompt), subagentType: str(input.subagent_type) };
    default:
      return {};
  }
}

/**
 * A call the user declined when asked, or a rule of theirs denied (`PermissionNext`'s RejectedError,
 * CorrectedError and DeniedError, packages/opencode/src/permission/next.ts): it never ran.
 */
const DECLINED =
  /^The user (?:rejected permission to use|has specified a rule which prevents you from using) this specific tool call/;

/** A tool part's `state` (pending/running/completed/error) as a neutral outcome; undefined until it ends. */
function toolOutcome(name: string, state: unknown): ToolOutcome | undefined {
  if (!isObject(state)) return undefined;
  const time = isObject(state.time) ? state.time : {};
  const start = typeof time.start === 'number' ? time.start : undefined;
  const end = typeof time.end === 'number' ? time.end : undefined;
  const durationMs = start !== undefined && end !== undefined && end >= start ? end - start : undefined;
  const metadata = isObject(state.metadata) ? state.metadata : {};
  if (state.status === 'error') {
    const error = str(state.error);
    // An interrupted call fails with "Tool execution aborted", newer versions add `metadata.interrupted`
    // (packages/opencode/src/session/processor.ts).
    const interrupted = metadata.interrupted === true || (error !== undefined && /\baborted\b/i.test(error));
    const declined = error !== undefined && DECLINED.test(error);
    return {
      failed: true,
      error,
      interrupted: interrupted || undefined,
      notRun: declined ? 'declined' : undefined,
      durationMs,
    };
  }
  if (state.status !== 'completed') return undefined;
  const outcome: ToolOutcome = { failed: false, output: str(state.output), durationMs };
  // bash reports `metadata.exit` (the process exit code; null when killed). opencode completes a command that
  // exits non-zero like any other (packages/opencode/src/tool/bash.ts): its exit code is what says it failed.
  if (typeof metadata.exit === 'number') {
    outcome.exitCode = metadata.exit;
    outcome.failed = metadata.exit !== 0;
  }
  // write reports whether the file already existed.
  if (name === 'write' && typeof metadata.exists === 'boolean') outcome.created = !metadata.exists;
  return outcome;
}

function toolKind(name: string, knownServers?: readonly string[]): ToolKind {
  return BUILTIN_TOOL_KINDS[name] ?? (mcpServerOf(name, knownServers) ? 'mcp' : 'other');
}

/** One opencode tool call (a tool part) in neutral form. */
export function toolCall(
  name: string,
  args: unknown,
  state?: unknown,
  callId?: string,
  knownServers?: readonly string[],
): ToolCall {
  const kind = toolKind(name, knownServers);
  const call: ToolCall = { name, kind, input: toolInput(name, args) };
  if (kind === 'mcp') call.server = mcpServerOf(name, knownServers);
  if (callId) call.useId = callId;
  const outcome = toolOutcome(name, state);
  if (outcome) call.outcome = outcome;
  return call;
}

/**
 * The agent type context selection matches for an opencode agent name: the primary agents (`build`, `plan`)
 * and subagents (`general`, `explore`, user-defined ones) keep their names; older versions called it `mode`.
 */
export function opencodeAgentType(name: unknown): string | undefined {
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
}
