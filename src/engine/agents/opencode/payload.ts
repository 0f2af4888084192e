/**
 * Reading the payloads our opencode plugin (`plugin.ts`) sends the recorder. opencode has no hook commands:
 * the plugin turns bus events (`event` hook) and new user messages (`chat.message` hook) into one JSON
 * object each, with `opencode_event` (certain recognition), a `hook_event_name` in the recorder's
 * vocabulary, `session_id`, `cwd` and the event's `properties` (tool parts slimmed).
 * Light on purpose: the recorder runs this on every event.
 */
import { type EventPayload, recorderFields, stringField } from '../../events/eventLine';
import type { PayloadReader } from '../adapter';
import { type Json, isObject } from '../jsonValues';
import type { AgentEvent, EventKind } from '../types';
import { opencodeAgentType, toolCall } from './toolKinds';

/** The key only our plugin's payloads carry: opencode's own event (or hook) name. */
const OPENCODE_EVENT_KEY = 'opencode_event';

/** What each recorded opencode event is called in `hook_event_name`, and what it means. */
export const OPENCODE_EVENTS = {
  'session.created': { hook: 'SessionStart', kind: 'session-start' },
  'chat.message': { hook: 'UserPromptSubmit', kind: 'prompt' },
  'message.part.updated': { hook: 'PostToolUse', kind: 'tool-end' },
  'session.compacted': { hook: 'PostCompact', kind: 'compact' },
  'session.idle': { hook: 'Stop', kind: 'stop' },
  'session.deleted': { hook: 'SessionEnd', kind: 'session-end' },
  'session.error': { hook: 'StopFailure', kind: 'other' },
} as const satisfies Record<string, { hook: string; kind: EventKind }>;

export type OpencodeEventName = keyof typeof OPENCODE_EVENTS;

function isOpencodeEvent(name: string | undefined): name is OpencodeEventName {
  return name !== undefined && Object.prototype.hasOwnProperty.call(OPENCODE_EVENTS, name);
}

function properties(payload: EventPayload): Json {
  return isObject(payload.properties) ? payload.properties : {};
}

function recognise(payload: EventPayload): number {
  const event = stringField(payload, OPENCODE_EVENT_KEY);
  if (event !== undefined && stringField(payload, 'hook_event_name') !== undefined) return 2;
  // The plugin runs the recorder with `--agent opencode`, which stamps the line.
  if (recorderFields(payload).agent === 'opencode') return 2;
  return event !== undefined ? 1 : 0;
}

function normalise(payload: EventPayload): AgentEvent | undefined {
  const name = stringField(payload, OPENCODE_EVENT_KEY);
  if (!isOpencodeEvent(name)) return undefined;
  const hook = stringField(payload, 'hook_event_name');
  const props = properties(payload);
  const event: AgentEvent = {
    agent: 'opencode',
    kind: OPENCODE_EVENTS[name].kind,
    name,
    sessionId: stringField(payload, 'session_id'),
    cwd: stringField(payload, 'cwd'),
    model: stringField(payload, 'model'),
    agentType: opencodeAgentType(payload.agent_type),
  };
  switch (name) {
    case 'session.created':
      event.source = stringField(payload, 'source') ?? 'startup';
      break;
    case 'chat.message':
      event.prompt = stringField(payload, 'prompt');
      break;
    case 'message.part.updated': {
      const part = isObject(props.part) ? props.part : {};
      const state = isObject(part.state) ? part.state : {};
      if (part.type !== 'tool' || (state.status !== 'completed' && state.status !== 'error'))
        return undefined;
      const tool = typeof part.tool === 'string' ? part.tool : stringField(payload, 'tool_name');
      if (!tool) return undefined;
      const callId = typeof part.callID === 'string' ? part.callID : stringField(payload, 'tool_use_id');
      event.tool = toolCall(tool, state.input, state, callId);
      event.kind = event.tool.outcome?.failed ? 'tool-failed' : 'tool-end';
      break;
    }
    case 'session.compacted': {
      event.trigger = stringField(payload, 'trigger');
      // With the summary the agent wrote (the plugin sends its text): its words are what the memory keeps.
      const summary = stringField(payload, 'compact_summary');
      if (summary !== undefined) {
        event.kind = 'compacted';
        event.summary = summary;
      }
      break;
    }
    case 'session.idle':
      // The plugin knows which sessions are subagents' (their `parentID`): their end is a subagent stop.
      if (hook === 'SubagentStop' || stringField(payload, 'parent_session_id')) event.kind = 'subagent-stop';
      event.message = stringField(payload, 'last_assistant_message');
      if (event.message === undefined) delete event.message;
      break;
    case 'session.deleted':
      event.endReason = stringField(payload, 'reason') ?? 'deleted';
      break;
    // session.error: the neutral form has no field for a session's error; the payload keeps it.
  }
  return event;
}

export const opencodePayloads: PayloadReader = {
  agent: 'opencode',
  specificity: 1,
  // The plugin reads what the recorder prints for a session's start and adds it to the system prompt.
  recognise,
  normalise,
};
