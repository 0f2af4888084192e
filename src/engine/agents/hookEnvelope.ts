/**
 * The hook envelope Claude Code defined, which VS Code's agent and Codex CLI send too: snake_case fields,
 * `hook_event_name`, `session_id`, `cwd`, the tool's own argument names in `tool_input`. Each agent says how
 * its events and tools read; the rest of the envelope is read here once.
 */
import { type EventPayload, stringField } from '../events/eventLine';
import type { AgentEvent, EventKind, ToolCall } from './types';
import type { AgentId } from '../../shared/agents';

export interface EnvelopeShape {
  agent: AgentId;
  /** What each of the agent's event names means. */
  kinds: Readonly<Record<string, EventKind>>;
  /** The event's name (default `hook_event_name`). */
  name?: (payload: EventPayload) => string | undefined;
  /** The session's id (default `session_id`). */
  sessionId?: (payload: EventPayload) => string | undefined;
  /** How a session started, in Claude Code's words (default: as sent). */
  source?: (source: string | undefined) => string | undefined;
  toolCall: (payload: EventPayload, kind: EventKind) => ToolCall | undefined;
}

/** The payload as a neutral event; undefined for a payload that names no event. Never throws. */
export function readEnvelope(payload: EventPayload, shape: EnvelopeShape): AgentEvent | undefined {
  const name = shape.name ? shape.name(payload) : stringField(payload, 'hook_event_name');
  if (name === undefined) return undefined;
  const kind: EventKind = Object.hasOwn(shape.kinds, name) ? shape.kinds[name] : 'other';
  const event: AgentEvent = { agent: shape.agent, kind, name };
  const set = <K extends keyof AgentEvent>(key: K, value: AgentEvent[K] | undefined) => {
    if (value !== undefined) event[key] = value;
  };
  set('sessionId', shape.sessionId ? shape.sessionId(payload) : stringField(payload, 'session_id'));
  set('cwd', stringField(payload, 'cwd'));
  set('transcriptPath', stringField(payload, 'transcript_path'));
  set('model', stringField(payload, 'model'));
  set('agentType', stringField(payload, 'agent_type'));
  switch (kind) {
    case 'session-start': {
      const source = stringField(payload, 'source');
      set('source', shape.source ? shape.source(source) : source);
      break;
    }
    case 'session-end':
      set('endReason', stringField(payload, 'reason'));
      break;
    case 'prompt':
      set('prompt', stringField(payload, 'prompt'));
      break;
    case 'tool-start':
    case 'tool-end':
    case 'tool-failed': {
      const call = shape.toolCall(payload, kind);
      set('tool', call);
      // Agents without a failure event (VS Code, Codex) report a failed call as ended: its result says so.
      if (kind === 'tool-end' && call?.outcome?.failed) event.kind = 'tool-failed';
      break;
    }
    case 'compact':
      set('trigger', stringField(payload, 'trigger'));
      set('instructions', stringField(payload, 'custom_instructions'));
      break;
    // A subagent's final message; with Stop, the agent's last message of the turn (Claude Code 2.1.47+, Codex).
    case 'subagent-stop':
    case 'stop':
      set('message', stringField(payload, 'last_assistant_message'));
      break;
    // Claude Code's PostCompact (2.1.76+): the summary the agent wrote of what it compacted.
    case 'compacted':
      set('trigger', stringField(payload, 'trigger'));
      set('summary', stringField(payload, 'compact_summary'));
      break;
  }
  return event;
}
