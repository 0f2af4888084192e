/**
 * A Codex tool call in neutral form, shared by the hook payload reader and the rollout reader: the
 * arguments by the names Codex's tools use, and how a call went from the text Codex gave the model.
 */
import { type Json, jsonRecord as record, jsonText as text, parseJsonObject } from '../jsonValues';
import type { ToolCall, ToolInput, ToolKind, ToolOutcome } from '../types';
import { parseApplyPatch } from './applyPatch';
import { codexMcpServer, codexToolKind } from './toolKinds';

/** A tool's arguments: an object, or the JSON text of one (rollout `function_call.arguments`). */
export function argumentsOf(value: unknown): Json {
  return record(typeof value === 'string' ? parseJsonObject(value) : value);
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'"'"'`)}'`;
}

/** An argv as one shell command line, quoted the way Codex's hooks show a local shell call (shlex). */
function shellJoin(argv: readonly unknown[]): string {
  return argv
    .filter((arg): arg is string => typeof arg === 'string')
    .map(quote)
    .join(' ');
}

function commandLine(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? shellJoin(value) : undefined;
}

/** Where a patch is, by tool: the hook's `command`, the JSON tool's `input`, or the freeform text itself. */
function patchText(args: Json | string): string | undefined {
  if (typeof args === 'string') return args;
  return text(args.command) ?? text(args.input) ?? text(args.patch);
}

/** The tool's arguments in neutral form, and its kind (an `apply_patch` that adds a file is a write). */
function codexToolInput(name: string, args: Json | string): { kind: ToolKind; input: ToolInput } {
  let kind = codexToolKind(name);
  const input: ToolInput = {};
  const fields = typeof args === 'string' ? {} : args;
  if (name === 'apply_patch') {
    const files = parseApplyPatch(patchText(args) ?? '');
    const first = files[0];
    if (first) {
      input.path = first.path;
      if (first.op === 'add') {
        kind = 'write';
        if (first.content !== undefined) input.content = first.content;
      } else if (first.op === 'update' && first.hunks.length > 0) {
        input.edits = first.hunks.map((hunk) => ({ before: hunk.before, after: hunk.after }));
      }
    }
    return { kind, input };
  }
  if (kind === 'shell') {
    const command = commandLine(fields.command) ?? commandLine(fields.cmd);
    if (command !== undefined) input.command = command;
    return { kind, input };
  }
  if (name === 'spawn_agent') {
    const prompt = text(fields.message) ?? text(fields.prompt) ?? text(fields.task);
    if (prompt !== undefined) input.prompt = prompt;
    const type = text(fields.agent_type) ?? text(fields.agent_role);
    if (type !== undefined) input.subagentType = type;
    return { kind, input };
  }
  // read_file, list_dir, view_image, grep_files, web_search and MCP tools: the arguments' common names.
  const path = text(fields.file_path) ?? text(fields.dir_path) ?? text(fields.path);
  if (path !== undefined) input.path = path;
  const url = text(fields.url);
  if (url !== undefined) input.url = url;
  const query = text(fields.query) ?? text(fields.pattern);
  if (query !== undefined) input.query = query;
  const prompt = text(fields.prompt);
  if (prompt !== undefined) input.prompt = prompt;
  return { kind, input };
}

/** A neutral call for tool `name` with arguments `args`, its MCP server named. */
export function codexToolCall(name: string, args: Json | string, useId?: string): ToolCall {
  const { kind, input } = codexToolInput(name, args);
  const call: ToolCall = { name, kind, input };
  const server = kind === 'mcp' ? codexMcpServer(name) : undefined;
  if (server !== undefined) call.server = server;
  if (useId !== undefined) call.useId = useId;
  return call;
}

const EXIT_PATTERNS = [
  /^Exit code: (-?\d+)$/m, // shell_command's freeform output
  /^Process exited with code (-?\d+)$/m, // exec_command (unified exec)
  /^Shell exit code: (-?\d+)$/m,
];

/**
 * A shell or patch result as Codex gives it to the model: the JSON `{"output", "metadata": {"exit_code"}}`
 * of the structured tools, or a header (`Exit code: N` or `Process exited with code N`, `Wall time: …`)
 * above an `Output:` line. Only the header is searched for the exit code, so a program that prints
 * "Exit code: 1" itself is not taken for a failure; text with no header is all output.
 */
export function parseToolText(value: string): { output: string; exitCode?: number } {
  const trimmed = value.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = record(JSON.parse(trimmed));
      const metadata = record(parsed.metadata);
      const code = metadata.exit_code ?? metadata.shell_exit_code;
      if (typeof parsed.output === 'string') {
        return typeof code === 'number'
          ? { output: parsed.output, exitCode: code }
          : { output: parsed.output };
      }
    } catch {
      // Not the structured form: read it as text.
    }
  }
  const marker = /^Output:\r?$/m.exec(value);
  if (!marker) return { output: value };
  const header = value.slice(0, marker.index);
  const output = value.slice(marker.index + marker[0].length).replace(/^\n/, '');
  for (const pattern of EXIT_PATTERNS) {
    const match = pattern.exec(header);
    if (match) return { output, exitCode: Number(match[1]) };
  }
  return { output };
}

/** The text of an MCP result (`content` parts, else the structured content). */
export function mcpResultText(result: Json): string | undefined {
  const parts = Array.isArray(result.content)
    ? result.content
        .map((part) => text(record(part).text))
        .filter((part): part is string => part !== undefined)
    : [];
  if (parts.length > 0) return parts.join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return undefined;
}

/** How a finished call went, from the output Codex reported for it. */
export function outcomeFromOutput(name: string, kind: ToolKind, output: unknown): ToolOutcome {
  // Newer rollouts may give the output as content parts rather than one string.
  if (Array.isArray(output)) output = mcpResultText({ content: output }) ?? '';
  if (typeof output === 'string') {
    const parsed = parseToolText(output);
    // write_stdin reports the exit of the process exec_command started: that call's outcome, not its own.
    const exitCode = name === 'write_stdin' ? undefined : parsed.exitCode;
    const outcome: ToolOutcome = {
      failed: (exitCode !== undefined && exitCode !== 0) || /^write_stdin failed\b/.test(output),
    };
    if (exitCode !== undefined) outcome.exitCode = exitCode;
    outcome.output = parsed.output;
    if (name === 'apply_patch' && kind === 'write' && !outcome.failed) outcome.created = true;
    return outcome;
  }
  const fields = record(output);
  const outcome: ToolOutcome = { failed: fields.isError === true || fields.success === false };
  const body = mcpResultText(fields) ?? (output === undefined ? undefined : JSON.stringify(output));
  if (body !== undefined) outcome.output = body;
  return outcome;
}
