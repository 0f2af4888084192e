/**
 * GitHub Copilot CLI's hook payloads (github/docs content/copilot/reference/copilot-cli-reference/
 * cli-hooks-reference.md). It loads every `.github/hooks/*.json` of the repository, the folder VS Code's
 * agent loads too, so our VS Code hook file runs under both. An event configured in PascalCase (ours are)
 * gets the VS Code compatible payload: `hook_event_name`, `session_id`, an ISO `timestamp`, `cwd`,
 * `tool_name`, `tool_input`, and after a tool `tool_result: { result_type, text_result_for_llm }` or, for
 * PostToolUseFailure, `error`. An event configured in camelCase gets `sessionId`, a numeric `timestamp`,
 * `toolName`, `toolArgs`, `toolResult: { resultType, textResultForLlm }`, and no event name at all.
 */
import { type EventPayload, stringField } from '../../events/eventLine';
import type { PayloadReader } from '../adapter';
import { readEnvelope } from '../hookEnvelope';
import { type Json, jsonRecord as record, jsonText as text } from '../jsonValues';
import type { AgentEvent, EventKind, ToolCall, ToolInput, ToolKind, ToolOutcome } from '../types';

const EVENT_KINDS: Readonly<Record<string, EventKind>> = {
  SessionStart: 'session-start',
  SessionEnd: 'session-end',
  UserPromptSubmit: 'prompt',
  PreToolUse: 'tool-start',
  PostToolUse: 'tool-end',
  PostToolUseFailure: 'tool-failed',
  Stop: 'stop',
  SubagentStop: 'subagent-stop',
  PreCompact: 'compact',
  ErrorOccurred: 'other',
};

/** The CLI's tools ("Tool names for hook matching" in the reference) and what each does. */
const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  bash: 'shell',
  powershell: 'shell',
  view: 'read',
  create: 'write',
  edit: 'edit',
  glob: 'search',
  grep: 'search',
  web_fetch: 'fetch',
  task: 'subagent',
  ask_user: 'other',
};

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

function copilotCliToolKind(name: string): ToolKind {
  return Object.hasOwn(TOOL_KINDS, name) ? TOOL_KINDS[name] : 'other';
}

/**
 * The event a camelCase payload is, from the fields only that event has (it names none): the reference's
 * input of each event, most specific first.
 */
function camelEventName(payload: EventPayload): string | undefined {
  if (payload.toolResult !== undefined) return 'PostToolUse';
  if (typeof payload.toolName === 'string')
    return payload.error !== undefined ? 'PostToolUseFailure' : 'PreToolUse';
  if (payload.errorContext !== undefined) return 'ErrorOccurred';
  if (typeof payload.prompt === 'string') return 'UserPromptSubmit';
  if (typeof payload.stopReason === 'string')
    return typeof payload.agentName === 'string' ? 'SubagentStop' : 'Stop';
  if (typeof payload.trigger === 'string') return 'PreCompact';
  if (typeof payload.reason === 'string') return 'SessionEnd';
  if (typeof payload.source === 'string') return 'SessionStart';
  return undefined;
}

function isCamel(payload: EventPayload): boolean {
  return (
    typeof payload.sessionId === 'string' &&
    typeof payload.timestamp === 'number' &&
    payload.hookEventName === undefined &&
    payload.hook_event_name === undefined
  );
}

/**
 * 2 for a payload certainly Copilot CLI's, else 0. VS Code's agent sends the same snake_case envelope with an
 * ISO timestamp, so certainty comes from what only the CLI sends: `tool_result` (VS Code: `tool_response`),
 * PostToolUseFailure, `stop_reason`, one of its own tool names, no `transcript_path` where VS Code always
 * sends one, or the camelCase form with a numeric timestamp and no event name.
 */
function recogniseCopilotCliPayload(payload: EventPayload): number {
  if (isCamel(payload)) return camelEventName(payload) !== undefined ? 2 : 0;
  const name = payload.hook_event_name;
  const timestamp = payload.timestamp;
  if (typeof name !== 'string' || typeof timestamp !== 'string' || !ISO_TIME.test(timestamp)) return 0;
  if (payload.tool_result !== undefined || name === 'PostToolUseFailure' || payload.stop_reason !== undefined)
    return 2;
  const tool = payload.tool_name;
  if (typeof tool === 'string' && Object.hasOwn(TOOL_KINDS, tool)) return 2;
  return payload.transcript_path === undefined && Object.hasOwn(EVENT_KINDS, name) ? 2 : 0;
}

/** The arguments by the names the CLI's tools use (path, command, pattern, url, prompt, old_str...). */
function toolInput(kind: ToolKind, args: Json): ToolInput {
  const input: ToolInput = {};
  const path = text(args.path) ?? text(args.file_path) ?? text(args.filePath);
  if (path !== undefined) input.path = path;
  const command = text(args.command);
  if (command !== undefined && kind === 'shell') input.command = command;
  const url = text(args.url);
  if (url !== undefined) input.url = url;
  const pattern = text(args.pattern) ?? text(args.query);
  if (pattern !== undefined && kind === 'search') input.query = pattern;
  const prompt = text(args.prompt);
  if (prompt !== undefined) input.prompt = prompt;
  const agent = text(args.agent_type) ?? text(args.agentName);
  if (agent !== undefined && kind === 'subagent') input.subagentType = agent;
  const content = text(args.file_text) ?? text(args.content);
  if (content !== undefined && kind === 'write') input.content = content;
  const before = text(args.old_str);
  const after = text(args.new_str);
  if (kind === 'edit' && (before !== undefined || after !== undefined)) input.edits = [{ before, after }];
  return input;
}

/** `tool_input`, or the camelCase `toolArgs`, which may be the arguments' JSON text. */
function argsOf(value: unknown): Json {
  if (typeof value !== 'string') return record(value);
  try {
    return record(JSON.parse(value));
  } catch {
    return {};
  }
}

function outcomeOf(result: Json, error: unknown): ToolOutcome {
  const type = text(result.result_type) ?? text(result.resultType);
  const output = text(result.text_result_for_llm) ?? text(result.textResultForLlm);
  const message = typeof error === 'string' ? error : text(record(error).message);
  const failed = message !== undefined || (type !== undefined && type !== 'success');
  const outcome: ToolOutcome = { failed };
  if (output !== undefined && output !== '') outcome[failed ? 'error' : 'output'] = output;
  if (message !== undefined) outcome.error = message;
  return outcome;
}

function toolCall(payload: EventPayload, kind: EventKind): ToolCall | undefined {
  const name = stringField(payload, 'tool_name') ?? stringField(payload, 'toolName');
  if (!name) return undefined;
  const toolKind = copilotCliToolKind(name);
  const call: ToolCall = {
    name,
    kind: toolKind,
    input: toolInput(toolKind, argsOf(payload.tool_input ?? payload.toolArgs)),
  };
  if (kind === 'tool-end' || kind === 'tool-failed')
    call.outcome = outcomeOf(record(payload.tool_result ?? payload.toolResult), payload.error);
  return call;
}

function normaliseCopilotCliPayload(payload: EventPayload): AgentEvent | undefined {
  const camel = isCamel(payload);
  const event = readEnvelope(payload, {
    agent: 'copilot-cli',
    kinds: EVENT_KINDS,
    name: (p) => stringField(p, 'hook_event_name') ?? (camel ? camelEventName(p) : undefined),
    sessionId: (p) => stringField(p, 'session_id') ?? stringField(p, 'sessionId'),
    // "new" is a new session, Claude Code's "startup".
    source: (source) => (source === 'new' ? 'startup' : source),
    toolCall,
  });
  if (event && camel) {
    const transcript = stringField(payload, 'transcriptPath');
    if (transcript !== undefined) event.transcriptPath = transcript;
    if (event.kind === 'prompt') event.prompt ??= stringField(payload, 'prompt');
  }
  if (event?.kind === 'subagent-stop') {
    const agent = stringField(payload, 'agent_name') ?? stringField(payload, 'agentName');
    if (agent !== undefined) event.agentType = agent;
  }
  return event;
}

export const copilotCliPayloads: PayloadReader = {
  agent: 'copilot-cli',
  // Shares VS Code's hook files and much of its payload shape: asked first.
  specificity: 4,
  recognise: recogniseCopilotCliPayload,
  normalise: normaliseCopilotCliPayload,
};
