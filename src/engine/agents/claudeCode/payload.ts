/**
 * Claude Code's hook payloads (docs: code.claude.com/docs/en/hooks): snake_case fields, `hook_event_name`,
 * `session_id`, `tool_input` in the tool's own argument names. Codex CLI sends the same shape, so a
 * payload of this shape alone is only a guess (1); Codex's own marks make it certain there.
 */
import { type EventPayload, stringField } from '../../events/eventLine';
import type { PayloadReader } from '../adapter';
import { readEnvelope } from '../hookEnvelope';
import { type Json, jsonRecord as record, jsonText as text } from '../jsonValues';
import { type EventKind, type ToolCall, type ToolInput, type ToolOutcome } from '../types';
import { claudeMcpServer, claudeToolKind } from './toolKinds';

const EVENT_KINDS: Readonly<Record<string, EventKind>> = {
  SessionStart: 'session-start',
  SessionEnd: 'session-end',
  UserPromptSubmit: 'prompt',
  PreToolUse: 'tool-start',
  PostToolUse: 'tool-end',
  PostToolUseFailure: 'tool-failed',
  PreCompact: 'compact',
  PostCompact: 'compacted',
  Stop: 'stop',
  SubagentStop: 'subagent-stop',
};

/** The result of a call Claude Code cancelled unrun because a call beside it in the same turn failed. */
const CANCELLED = /^(?:<tool_use_error>)?Sibling tool call errored/;
/** The result of a call the user declined at the permission prompt. */
const DECLINED = /^The user doesn't want to (?:proceed with this tool use|take this action)/;

function errorText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The arguments of a Claude Code tool call, by the names its built-in tools use. */
function claudeToolInput(name: string, input: Json): ToolInput {
  const result: ToolInput = {};
  const file = text(input.file_path) ?? text(input.notebook_path) ?? text(input.path);
  if (file !== undefined) result.path = file;
  if (input.notebook_path !== undefined) result.notebook = true;
  if (typeof input.command === 'string') result.command = input.command;
  if (typeof input.url === 'string') result.url = input.url;
  const query = text(input.query) ?? text(input.pattern);
  if (query !== undefined) result.query = query;
  const prompt = text(input.prompt);
  if (prompt !== undefined) result.prompt = prompt;
  if (typeof input.content === 'string') result.content = input.content;
  if (typeof input.subagent_type === 'string') result.subagentType = input.subagent_type;
  if (name === 'MultiEdit' && Array.isArray(input.edits)) {
    result.edits = input.edits.map(record).map((edit) => ({
      before: text(edit.old_string),
      after: text(edit.new_string),
    }));
  } else if (input.old_string !== undefined || input.new_string !== undefined) {
    result.edits = [{ before: text(input.old_string), after: text(input.new_string) }];
  }
  return result;
}

function outputText(response: unknown): string | undefined {
  if (typeof response === 'string') return response;
  const fields = record(response);
  const parts = [fields.stdout, fields.stderr, fields.output].filter((v) => typeof v === 'string');
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** How a finished call went, from `tool_response` (or `error` of a failure). */
function claudeToolOutcome(
  response: unknown,
  failure: { failed: boolean; error?: unknown; interrupted?: boolean; durationMs?: unknown },
): ToolOutcome {
  const fields = record(response);
  const outcome: ToolOutcome = { failed: failure.failed };
  if (failure.interrupted === true || fields.interrupted === true) outcome.interrupted = true;
  // A Write reports whether it made the file (`create`) or replaced one (`update`).
  if (fields.type === 'create') outcome.created = true;
  else if (fields.type === 'update') outcome.created = false;
  const exitCode = [fields.exitCode, fields.exit_code, fields.returnCode].find(
    (value): value is number => typeof value === 'number',
  );
  if (exitCode !== undefined) outcome.exitCode = exitCode;
  const output = outputText(response);
  if (output !== undefined) outcome.output = output;
  const error = errorText(failure.error);
  if (error !== undefined) {
    outcome.error = error;
    if (DECLINED.test(error)) outcome.notRun = 'declined';
    else if (CANCELLED.test(error)) outcome.notRun = 'cancelled';
  }
  if (typeof failure.durationMs === 'number' && Number.isFinite(failure.durationMs))
    outcome.durationMs = Math.round(failure.durationMs);
  return outcome;
}

function claudeToolCall(payload: EventPayload, kind: EventKind): ToolCall | undefined {
  const name = stringField(payload, 'tool_name');
  if (!name) return undefined;
  const call: ToolCall = {
    name,
    kind: claudeToolKind(name),
    input: claudeToolInput(name, record(payload.tool_input)),
  };
  const server = claudeMcpServer(name);
  if (server !== undefined) call.server = server;
  const useId = stringField(payload, 'tool_use_id');
  if (useId !== undefined) call.useId = useId;
  if (kind === 'tool-end' || kind === 'tool-failed') {
    call.outcome = claudeToolOutcome(payload.tool_response, {
      failed: kind === 'tool-failed',
      error: payload.error,
      interrupted: payload.is_interrupt === true,
      durationMs: payload.duration_ms,
    });
  }
  return call;
}

export const claudePayloads: PayloadReader = {
  agent: 'claude-code',
  // Its shape (`hook_event_name`) is shared by the others: asked last.
  specificity: 0,
  recognise: (payload) => (typeof payload.hook_event_name === 'string' ? 1 : 0),
  normalise: (payload) =>
    readEnvelope(payload, { agent: 'claude-code', kinds: EVENT_KINDS, toolCall: claudeToolCall }),
};
