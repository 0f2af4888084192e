/**
 * VS Code's agent's hook payloads (the "Local" harness, run by the Copilot Chat extension). Since VS Code 1.110
 * (microsoft/vscode-copilot-chat b7ced2c8, 2026-02-25) every hook gets Claude Code's snake_case envelope,
 * whichever file declared it (`.github/hooks/*.json`, `~/.copilot/hooks`, or `.claude/settings*.json`):
 * `timestamp` (ISO 8601), `hook_event_name`, `session_id`, `transcript_path`, optional `model`, the event's own
 * fields, and `cwd` (the hook's working directory, the workspace root by default). Earlier builds, and VS Code's
 * docs still, use camelCase `hookEventName` and `sessionId`. Tool fields are snake_case in both; `tool_input`
 * holds the tool's own camelCase arguments and `tool_response` is the text of the result.
 */
import { type EventPayload, stringField } from '../../events/eventLine';
import type { PayloadReader } from '../adapter';
import { readEnvelope } from '../hookEnvelope';
import { type Json, jsonRecord as record, jsonText as text } from '../jsonValues';
import type { AgentEvent, EventKind, ToolCall, ToolInput, ToolOutcome } from '../types';
import { isDistinctiveVscodeTool, isNotebookTool, vscodeToolKind } from './toolKinds';

/** The events VS Code declares (vscode.proposed.chatHooks.d.ts `ChatHookType`); the Local agent fires the first 8. */
const EVENT_KINDS: Readonly<Record<string, EventKind>> = {
  SessionStart: 'session-start',
  UserPromptSubmit: 'prompt',
  PreToolUse: 'tool-start',
  PostToolUse: 'tool-end',
  PreCompact: 'compact',
  SubagentStart: 'other',
  SubagentStop: 'subagent-stop',
  Stop: 'stop',
  SessionEnd: 'session-end',
  ErrorOccurred: 'other',
};

function eventKind(name: string): EventKind | undefined {
  return Object.prototype.hasOwnProperty.call(EVENT_KINDS, name) ? EVENT_KINDS[name] : undefined;
}

/** Where the Copilot extension keeps the transcript it names in `transcript_path` (its workspace storage). */
const TRANSCRIPT_PATH = /[\\/]github\.copilot-chat[\\/]transcripts[\\/][^\\/]+\.jsonl$/i;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The event name, in either generation's spelling. */
function eventName(payload: EventPayload): string | undefined {
  return stringField(payload, 'hook_event_name') ?? stringField(payload, 'hookEventName');
}

/**
 * 2 for a payload certainly VS Code's, else 0. Claude Code and Codex send the same snake_case envelope, so
 * certainty comes from what only VS Code adds: the ISO `timestamp` it stamps on every input (they send none),
 * SessionStart's `source: "new"`, a transcript in the Copilot extension's storage, or a VS Code tool name.
 * The camelCase generation is VS Code's own spelling; a numeric timestamp there would be Copilot CLI's.
 */
export function recogniseVscodePayload(payload: EventPayload): number {
  const timestamp = payload.timestamp;
  const stamped = typeof timestamp === 'string' && ISO_TIME.test(timestamp);
  const camel = payload.hookEventName;
  if (typeof camel === 'string') return stamped && eventKind(camel) !== undefined ? 2 : 0;
  const name = payload.hook_event_name;
  if (typeof name !== 'string') return 0;
  if (stamped) return 2;
  if (name === 'SessionStart' && payload.source === 'new') return 2;
  const transcript = payload.transcript_path;
  if (typeof transcript === 'string' && TRANSCRIPT_PATH.test(transcript)) return 2;
  const tool = payload.tool_name;
  return typeof tool === 'string' && isDistinctiveVscodeTool(tool) ? 2 : 0;
}

/** The first file a Codex-style patch (`apply_patch`'s `input`) adds, updates or deletes. */
function patchPath(patch: string): string | undefined {
  return /^\*\*\* (?:Add|Update|Delete) File: (.+)$/m.exec(patch)?.[1]?.trim();
}

type Replacement = { path?: string; before?: string; after?: string };

function replacementsOf(value: unknown): Replacement[] {
  if (!Array.isArray(value)) return [];
  return value
    .map(record)
    .map((r) => ({ path: text(r.filePath), before: text(r.oldString), after: text(r.newString) }))
    .filter((r) => r.before !== undefined || r.after !== undefined);
}

/** The arguments of a VS Code tool call, by the names its tools use (filePath, oldString, urls...). */
export function vscodeToolInput(name: string, input: Json): ToolInput {
  const result: ToolInput = {};
  const kind = vscodeToolKind(name);
  const path =
    text(input.filePath) ??
    text(input.path) ??
    text(input.dirPath) ??
    text(input.file_path) ??
    // The shape VS Code's docs show for `editFiles`: a list of files.
    (Array.isArray(input.files) ? text(input.files[0]) : undefined) ??
    (name === 'apply_patch' || name === 'copilot_applyPatch'
      ? patchPath(text(input.input) ?? '')
      : undefined);
  if (path !== undefined) result.path = path;
  if (isNotebookTool(name)) result.notebook = true;
  const command = text(input.command);
  if (command !== undefined && kind === 'shell') result.command = command;
  // fetch_webpage takes a list; the neutral form has one URL, so the first stands for the call.
  const url = text(input.url) ?? (Array.isArray(input.urls) ? text(input.urls[0]) : undefined);
  if (url !== undefined) result.url = url;
  const query = text(input.query);
  const prompt = text(input.prompt);
  if (kind === 'fetch' || kind === 'subagent') {
    // A fetch's `query` says what to look for in the page; a search subagent's `query` is its task.
    const task = prompt ?? query;
    if (task !== undefined) result.prompt = task;
  } else {
    if (query !== undefined) result.query = query;
    if (prompt !== undefined) result.prompt = prompt;
  }
  if (kind === 'subagent' && typeof input.agentName === 'string') result.subagentType = input.agentName;
  if (typeof input.content === 'string' && kind === 'write') result.content = input.content;
  const before = text(input.oldString);
  const after = text(input.newString);
  if (before !== undefined || after !== undefined) {
    result.edits = [{ before, after }];
  } else if (Array.isArray(input.replacements)) {
    // One call may edit several files; the neutral form has one path, so it keeps the first file's edits.
    const replacements = replacementsOf(input.replacements);
    const file = replacements.find((r) => r.path !== undefined)?.path;
    if (file !== undefined && result.path === undefined) result.path = file;
    const edits = replacements
      .filter((r) => r.path === undefined || r.path === result.path)
      .map((r) => ({ before: r.before, after: r.after }));
    if (edits.length > 0) result.edits = edits;
  }
  return result;
}

/** The text of a result part list (`[{kind:'text', value}]` or `[{type:'text', text}]`), if any. */
function partsText(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts = value
    .map((part) => (typeof part === 'string' ? part : (text(record(part).value) ?? text(record(part).text))))
    .filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * How a finished call went, from `tool_response`. VS Code sends the text parts of the tool's result joined
 * (toolResultToText in toolCalling.tsx): edit and read tools answer in prompt-tsx parts, so theirs is "",
 * which says nothing about output and is left out. Structured responses are read for the usual fields.
 * PostToolUse fires only after a call that did not throw, so a call is failed only when the response says so.
 */
export function vscodeToolOutcome(response: unknown): ToolOutcome {
  const outcome: ToolOutcome = { failed: false };
  if (typeof response === 'string') {
    if (response !== '') outcome.output = response;
    return outcome;
  }
  const listed = partsText(response);
  if (listed !== undefined) {
    outcome.output = listed;
    return outcome;
  }
  const fields = record(response);
  const streams = [fields.stdout, fields.stderr, fields.output].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  const output =
    streams.length > 0
      ? streams.join('\n')
      : (text(fields.content) ?? partsText(fields.content) ?? text(fields.result) ?? text(fields.text));
  if (output !== undefined && output !== '') outcome.output = output;
  const exitCode = [fields.exitCode, fields.exit_code].find(
    (value): value is number => typeof value === 'number' && Number.isInteger(value),
  );
  if (exitCode !== undefined) outcome.exitCode = exitCode;
  const error = text(fields.error) ?? text(record(fields.error).message);
  if (error !== undefined) outcome.error = error;
  if (fields.success === false || fields.isError === true || fields.is_error === true || error !== undefined)
    outcome.failed = true;
  return outcome;
}

function toolCall(payload: EventPayload, kind: EventKind): ToolCall | undefined {
  const name = stringField(payload, 'tool_name');
  if (!name) return undefined;
  const call: ToolCall = {
    name,
    kind: vscodeToolKind(name),
    input: vscodeToolInput(name, record(payload.tool_input)),
  };
  // VS Code suffixes the model's call id (`__vscode-<n>`); its transcript keeps the model's id alone, so a
  // call the hooks recorded and the transcript repeats is one call.
  const useId = stringField(payload, 'tool_use_id')?.replace(/__vscode-\d+$/, '');
  if (useId !== undefined) call.useId = useId;
  if (kind === 'tool-end') call.outcome = vscodeToolOutcome(payload.tool_response);
  return call;
}

/** VS Code's `source` is "new" for every new session: Claude Code's word for it is "startup". */
function sessionSource(source: string | undefined): string | undefined {
  return source === 'new' ? 'startup' : source;
}

export function normaliseVscodePayload(payload: EventPayload): AgentEvent | undefined {
  return readEnvelope(payload, {
    agent: 'vscode',
    kinds: EVENT_KINDS,
    name: eventName,
    sessionId: (p) => stringField(p, 'session_id') ?? stringField(p, 'sessionId'),
    source: sessionSource,
    toolCall,
  });
}

export const vscodePayloads: PayloadReader = {
  agent: 'vscode',
  specificity: 3,
  recognise: recogniseVscodePayload,
  normalise: normaliseVscodePayload,
};
