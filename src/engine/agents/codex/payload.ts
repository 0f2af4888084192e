/**
 * Codex CLI's hook payloads (codex-rs/hooks/schema/generated/*.command.input.schema.json): Claude Code's
 * snake_case shape, plus Codex's own marks. Every turn-scoped event carries `turn_id` ("Codex extension"),
 * `transcript_path` is the session's rollout file (`…/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`) or
 * null for a session kept in memory, and the shell tool is `Bash` whose `tool_response` is the output text
 * (no exit code), `apply_patch` gets the patch in `tool_input.command` and answers with
 * `{"output", "metadata": {"exit_code"}}` as text, and an MCP tool answers with its `CallToolResult`.
 * Light on purpose: the recorder runs this on every hook call.
 */
import { type EventPayload, recorderFields, stringField } from '../../events/eventLine';
import type { PayloadReader } from '../adapter';
import { readEnvelope } from '../hookEnvelope';
import type { AgentEvent, EventKind, ToolCall } from '../types';
import { jsonRecord as record } from '../jsonValues';
import { codexToolCall, outcomeFromOutput } from './toolCalls';

/** Codex's hook events (codex-rs/config HookEventsToml) and what each is in neutral form. */
const EVENT_KINDS: Readonly<Record<string, EventKind>> = {
  SessionStart: 'session-start',
  SessionEnd: 'session-end',
  UserPromptSubmit: 'prompt',
  PreToolUse: 'tool-start',
  PermissionRequest: 'other',
  PostToolUse: 'tool-end',
  PreCompact: 'compact',
  // Codex's PostCompact carries the trigger only, no summary (post-compact.command.input.schema.json).
  PostCompact: 'compacted',
  SubagentStart: 'other',
  SubagentStop: 'subagent-stop',
  Stop: 'stop',
  StopFailure: 'other',
  Interrupt: 'other',
};

const ROLLOUT_PATH = /(?:^|[\\/])rollout-[^\\/]*\.jsonl$/;
const CLAUDE_PATH = /[\\/]\.claude[\\/]/;

/** 2 when the payload is certainly Codex's, 1 when only its model says so, 0 otherwise. */
function recogniseCodexPayload(payload: EventPayload): number {
  const name = payload.hook_event_name;
  if (typeof name !== 'string') return 0;
  if (recorderFields(payload).agent === 'codex') return 2;
  const transcript = payload.transcript_path;
  if (typeof transcript === 'string') {
    if (CLAUDE_PATH.test(transcript)) return 0;
    if (ROLLOUT_PATH.test(transcript)) return 2;
  }
  // Codex sends null for a session it keeps no file of; Claude Code always names its transcript.
  if (transcript === null && typeof payload.session_id === 'string') return 2;
  // Claude Code has a `turn_id` only on events Codex does not have (MessageDisplay).
  if (typeof payload.turn_id === 'string' && Object.hasOwn(EVENT_KINDS, name)) return 2;
  if (payload.tool_name === 'apply_patch') return 2;
  const model = payload.model;
  if (typeof model === 'string' && /^(?:gpt-|o\d|codex)/i.test(model)) return 1;
  return 0;
}

function toolCall(payload: EventPayload, kind: EventKind): ToolCall | undefined {
  const name = stringField(payload, 'tool_name');
  if (!name) return undefined;
  const call = codexToolCall(name, record(payload.tool_input), stringField(payload, 'tool_use_id'));
  if (kind === 'tool-end' && 'tool_response' in payload) {
    call.outcome = outcomeFromOutput(name, call.kind, payload.tool_response);
  }
  return call;
}

/** The payload as a neutral event; undefined for a payload that names no hook event. Never throws. */
function normaliseCodexPayload(payload: EventPayload): AgentEvent | undefined {
  return readEnvelope(payload, { agent: 'codex', kinds: EVENT_KINDS, toolCall });
}

export const codexPayloads: PayloadReader = {
  agent: 'codex',
  specificity: 2,
  recognise: (payload) => {
    try {
      return recogniseCodexPayload(payload);
    } catch {
      return 0;
    }
  },
  normalise: (payload) => {
    try {
      return normaliseCodexPayload(payload);
    } catch {
      return undefined;
    }
  },
};
