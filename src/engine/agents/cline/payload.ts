/**
 * Cline's hook payloads (cline/cline v3.89.2 `apps/vscode/proto/cline/hooks.proto` HookInput, written by
 * `HookInput.toJSON` in `core/hooks/hook-factory.ts`): proto3 JSON, camelCase, default values left out.
 * `clineVersion`, `hookName`, `timestamp` (epoch ms as a string), `taskId`, `workspaceRoots`, `userId`,
 * `model {provider, slug}`, and one of `preToolUse {toolName, parameters}`, `postToolUse {toolName,
 * parameters, result, success, executionTimeMs}` (a `success` of false is no key at all), `userPromptSubmit
 * {prompt}`, `taskStart`, `taskResume`, `taskCancel`, `taskComplete`, `preCompact`, `notification`. The hook
 * runs in the workspace root. Light on purpose: the recorder runs this on every hook call.
 */
import { type EventPayload, recorderFields, stringField } from '../../events/eventLine';
import type { PayloadReader } from '../adapter';
import { type Json, isObject, jsonNumber, jsonText } from '../jsonValues';
import type { AgentEvent, EventKind } from '../types';
import { clineOutcome, clineToolCall } from './toolKinds';

/** Each hook, the key of its data in the payload, and what it is in neutral form. */
const HOOKS: Readonly<Record<string, { data: string; kind: EventKind; source?: string }>> = {
  TaskStart: { data: 'taskStart', kind: 'session-start', source: 'startup' },
  TaskResume: { data: 'taskResume', kind: 'session-start', source: 'resume' },
  TaskCancel: { data: 'taskCancel', kind: 'stop' },
  TaskComplete: { data: 'taskComplete', kind: 'stop' },
  UserPromptSubmit: { data: 'userPromptSubmit', kind: 'prompt' },
  PreToolUse: { data: 'preToolUse', kind: 'tool-start' },
  PostToolUse: { data: 'postToolUse', kind: 'tool-end' },
  PreCompact: { data: 'preCompact', kind: 'compact' },
  Notification: { data: 'notification', kind: 'other' },
};

/**
 * Cline 4.x's SDK hook runner (v4.1.12 `sdk/packages/core/src/hooks/subprocess.ts`, used by its CLI) names the
 * hooks after its runtime events but still fills the 3.x data keys: the hook each name stands for. The VS Code
 * extension keeps the 3.x names (`apps/vscode/src/sdk/hooks-adapter.ts`). Neither fires PreCompact or
 * Notification.
 */
const SDK_HOOKS: Readonly<Record<string, string>> = {
  agent_start: 'TaskStart',
  agent_resume: 'TaskResume',
  agent_abort: 'TaskCancel',
  agent_error: 'TaskCancel',
  agent_end: 'TaskComplete',
  prompt_submit: 'UserPromptSubmit',
  tool_call: 'PreToolUse',
  tool_result: 'PostToolUse',
};

/** The SDK hooks' own record of the call (`tool_call`/`tool_result` `{id, name, input, …}`): its id. */
function sdkCallId(payload: EventPayload, name: string): string | undefined {
  const record = payload[name];
  return isObject(record) ? jsonText(record.id) || undefined : undefined;
}

function hookOf(payload: EventPayload): string | undefined {
  const name = stringField(payload, 'hookName');
  return name !== undefined && (Object.hasOwn(HOOKS, name) || Object.hasOwn(SDK_HOOKS, name))
    ? name
    : undefined;
}

/** 2 for a payload in Cline's shape (a known `hookName` with `clineVersion` or `taskId`), else 0. */
function recognise(payload: EventPayload): number {
  if (recorderFields(payload).agent === 'cline') return 2;
  if (hookOf(payload) === undefined) return 0;
  return typeof payload.clineVersion === 'string' || typeof payload.taskId === 'string' ? 2 : 1;
}

function dataOf(payload: EventPayload, key: string): Json {
  return isObject(payload[key]) ? payload[key] : {};
}

function normalise(payload: EventPayload): AgentEvent | undefined {
  const name = hookOf(payload);
  if (name === undefined) return undefined;
  const hook = HOOKS[Object.hasOwn(SDK_HOOKS, name) ? SDK_HOOKS[name] : name];
  const data = dataOf(payload, hook.data);
  const event: AgentEvent = { agent: 'cline', kind: hook.kind, name };
  // The SDK's `taskId` is the run's conversation (`conv_…`); its session, the folder its files are in, is
  // `sessionContext.rootSessionId` (CLI 3.0.65 `hook-file-hooks.ts` createPayloadBase).
  const root = isObject(payload.sessionContext) ? jsonText(payload.sessionContext.rootSessionId) : undefined;
  const taskId = root || stringField(payload, 'taskId');
  if (taskId) event.sessionId = taskId;
  const roots = Array.isArray(payload.workspaceRoots) ? payload.workspaceRoots : [];
  const cwd = typeof roots[0] === 'string' ? roots[0] : undefined;
  if (cwd) event.cwd = cwd;
  const model = isObject(payload.model) ? jsonText(payload.model.slug) : undefined;
  // Cline 4.x's extension passes no model to its hooks: `HookFactory` then writes "unknown".
  if (model && model !== 'unknown') event.model = model;
  switch (hook.kind) {
    case 'session-start':
      event.source = hook.source;
      break;
    case 'prompt':
      // Cline writes an empty prompt as "" on purpose (hook-factory.ts); a missing one is empty too.
      event.prompt = jsonText(data.prompt) ?? '';
      break;
    case 'tool-start':
    case 'tool-end': {
      const tool = jsonText(data.toolName);
      if (!tool) return undefined;
      const call = clineToolCall(tool, data.parameters, sdkCallId(payload, name));
      if (hook.kind === 'tool-end') {
        call.outcome = clineOutcome(jsonText(data.result), data.success === true);
        const duration = jsonNumber(data.executionTimeMs) ?? Number(jsonText(data.executionTimeMs));
        if (Number.isFinite(duration)) call.outcome.durationMs = duration;
        if (call.outcome.failed) event.kind = 'tool-failed';
      }
      event.tool = call;
      break;
    }
    case 'compact':
      // Cline compacts on its own (condensing or truncating: `compactionStrategy`), never on a command.
      event.trigger = 'auto';
      break;
    case 'stop':
      if (name === 'TaskCancel' || name === 'agent_abort') event.endReason = 'cancelled';
      else if (name === 'agent_error') event.endReason = 'error';
      break;
  }
  return event;
}

export const clinePayloads: PayloadReader = {
  agent: 'cline',
  // Its shape is its own (camelCase `hookName`), shared with no other agent.
  specificity: 5,
  recognise: (payload) => {
    try {
      return recognise(payload);
    } catch {
      return 0;
    }
  },
  normalise: (payload) => {
    try {
      return normalise(payload);
    } catch {
      return undefined;
    }
  },
};
