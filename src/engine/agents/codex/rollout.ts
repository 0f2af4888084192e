/**
 * Codex CLI's session file, the rollout (codex-rs/protocol `RolloutLine`): one JSON object a line,
 * `{timestamp, type, payload}` with `type` one of `session_meta` (the first line: id, cwd, cli_version,
 * `forked_from_id`), `turn_context` (model, turn_id), `response_item` (model-visible items: `message`,
 * `function_call`/`function_call_output`, `custom_tool_call`/`_output`, `local_shell_call`,
 * `web_search_call`), `event_msg` (`user_message`, `token_count`, `task_started`, `exec_command_end`,
 * `patch_apply_end`, `mcp_tool_call_end`, `agent_message`, `task_complete`, `context_compacted`...) and
 * `compacted` (the summary in `message`). Releases before the wrapper (2025) wrote the session meta bare on
 * the first line and the response items bare after it.
 *
 * Keys are stable across copies: a fork (`fork_thread`, or a subagent `spawn_agent` starts with its
 * parent's history) starts its own file with its own `session_meta` and then persists the parent's items as
 * they were (payloads equal, timestamps new; see forkPrefix.ts), so tool calls are keyed by `call_id` and
 * prompts by the turn they belong to (`turn_id`, which the copy keeps), never by a line's timestamp or
 * position in the file.
 */
import { userPromptText } from '../userPrompt';
import { toEpochMs } from '../../events/eventLine';
import { leadingFields } from '../jsonPrefix';
import { type SessionText, parseSessionLines, textKey } from '../sessionLines';
import type { SessionItem } from '../adapter';
import type { ToolCall, ToolOutcome } from '../types';
import {
  type Json,
  isObject,
  jsonNumber as num,
  jsonRecord as record,
  jsonText as text,
} from '../jsonValues';
import { argumentsOf, parseToolText, codexToolCall, mcpResultText, outcomeFromOutput } from './toolCalls';
import { isSpawnOutput, turnIsOwn, uuidV7Time } from './forkPrefix';
import { qualifiedName } from './toolKinds';

type ToolItem = Extract<SessionItem, { type: 'tool' }>;

interface Line {
  at: number | undefined;
  type: string;
  payload: Json;
}

/** Messages Codex adds to the conversation itself (instructions, environment), not the user's prompts. */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '<permissions instructions>',
  '<INSTRUCTIONS>',
  '# AGENTS.md instructions',
  '<user_shell_command>',
  '<turn_aborted>',
  '<subagent_notification>',
];

/** The injected messages that carry the project's instructions (AGENTS.md): Claude Code's memory files. */
const MEMORY_PREFIXES = ['# AGENTS.md instructions', '<user_instructions>', '<INSTRUCTIONS>'];
/** The ones that carry Codex's own standing instructions: part of its system prompt. */
const SYSTEM_PREFIXES = ['<environment_context>', '<permissions instructions>'];

const RESPONSE_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

/** The items of a rollout line besides its `session_meta` (codex-rs/protocol `RolloutItem`). */
const ROLLOUT_ITEM_TYPES = new Set(['turn_context', 'response_item', 'event_msg', 'compacted']);

/** The line Codex puts before a local compaction's summary (codex-rs/core templates/compact/summary_prefix.md). */
const SUMMARY_PREFIX = 'Another language model started to solve this problem';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The turn a `turn_context` line or a turn's start event opens. */
function turnIdOf(line: Line): string | undefined {
  const opensTurn =
    line.type === 'turn_context' ||
    (line.type === 'event_msg' &&
      (line.payload.type === 'task_started' || line.payload.type === 'turn_started'));
  return opensTurn ? text(line.payload.turn_id) : undefined;
}

/** The made-up output of the parent's spawn call that closed a subagent's copy in some releases. */
function isInheritedEnd(line: Line): boolean {
  return line.type === 'response_item' && isSpawnOutput(line.payload);
}

function isInjected(message: string): boolean {
  const start = message.trimStart();
  return INJECTED_PREFIXES.some((prefix) => start.startsWith(prefix));
}

/** One line as a rollout item; null for a line that is no JSON object, undefined for one to ignore. */
function parseLine(raw: string, first: boolean): Line | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  const object = value;
  const at = toEpochMs(object.timestamp);
  if (typeof object.type === 'string' && 'payload' in object)
    return { at, type: object.type, payload: record(object.payload) };
  // The pre-wrapper format: a bare session meta first, bare response items after, `record_type` markers.
  if (typeof object.type === 'string' && RESPONSE_ITEM_TYPES.has(object.type))
    return { at: undefined, type: 'response_item', payload: object };
  if (first && typeof object.id === 'string') return { at, type: 'session_meta', payload: object };
  if (object.record_type !== undefined) return undefined;
  return null;
}

/** The text of a message's `input_text`/`output_text` parts. */
function messageText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .map((part) => record(part))
    .filter((part) => part.type === 'input_text' || part.type === 'text')
    .map((part) => text(part.text))
    .filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join('\n') : undefined;
}

function sessionIdOf(meta: Json): string | undefined {
  return text(meta.id) ?? text(meta.session_id);
}

/**
 * The first releases' meta: `{id, timestamp}` alone when there were no instructions
 * (codex-rs/core/src/rollout.rs `SessionMeta` at 89a151f502213bec8140159e728170b0d999eca2).
 */
function isFirstReleaseMeta(meta: Json): boolean {
  const id = text(meta.id);
  return (
    id !== undefined &&
    UUID.test(id) &&
    toEpochMs(meta.timestamp) !== undefined &&
    Object.keys(meta).length === 2
  );
}

/**
 * Whether a file's first line is a Codex rollout's: a `session_meta` line, whatever the order or size of its
 * fields (the meta carries the base instructions, tens of KB, so the line may be cut short here), another
 * rollout item where the meta line is missing (Codex then names the session after the file: codex-rs/rollout
 * `builder_from_items`), or the bare meta of releases before the line wrapper.
 */
export function recogniseRolloutHead(head: string): boolean {
  const first = head.split('\n', 1)[0];
  const fields = leadingFields(first);
  const type = fields.strings.get('type');
  if (type === 'session_meta') return true;
  if (type !== undefined && ROLLOUT_ITEM_TYPES.has(type))
    return fields.strings.has('timestamp') && fields.keys.includes('payload');
  const line = parseLine(first.trim(), true);
  return (
    line?.type === 'session_meta' &&
    sessionIdOf(line.payload) !== undefined &&
    (line.payload.cwd !== undefined || 'instructions' in line.payload || isFirstReleaseMeta(line.payload))
  );
}

/**
 * The folder a rollout's session ran in: its meta's `cwd`, else (releases whose meta has none) the first
 * turn context's. `lines` are the file's first lines; reading stops at the answer.
 */
export function rolloutCwd(lines: Iterable<string>): string | undefined {
  let first = true;
  for (const raw of lines) {
    if (raw.trim() === '') continue;
    const line = parseLine(raw, first);
    if (first && !(line && (line.type === 'session_meta' || ROLLOUT_ITEM_TYPES.has(line.type))))
      return undefined;
    first = false;
    const cwd =
      line && (line.type === 'session_meta' || line.type === 'turn_context') && text(line.payload.cwd);
    if (cwd) return cwd;
  }
  return undefined;
}

/**
 * Everything a rollout's text says, in file order; lines that are no JSON object are skipped and counted.
 * `fallbackId` names the session when the file has no meta line of its own (the id in the file's name).
 */
export function readRollout(
  source: SessionText,
  fallbackId?: string,
): { items: SessionItem[]; skipped: number } {
  let ownMeta = false;
  const { lines, skipped } = parseSessionLines(source, (raw, first) => {
    const line = parseLine(raw, first);
    if (first) ownMeta = line?.type === 'session_meta';
    return line;
  });
  const meta = ownMeta ? lines[0].payload : undefined;
  const sessionId = (meta && sessionIdOf(meta)) ?? fallbackId;
  if (sessionId === undefined)
    throw new Error(
      'no session_meta line with its session id, and no id in the file name (rollout-<time>-<id>.jsonl): ' +
        'which session it is cannot be told',
    );
  // Only the first line's meta is this session's: a later one is a forked parent's, copied in.
  return { items: new RolloutReader(lines, meta, sessionId).read(), skipped };
}

class RolloutReader {
  private readonly items: SessionItem[] = [];
  private readonly sessionId: string;
  /** Prompts outside any turn are numbered from the conversation's origin, which a fork shares. */
  private readonly origin: string;
  private readonly meta: Json | undefined;
  private readonly promptEvents: boolean;
  private readonly firstModel: string | undefined;
  private readonly cwd: string | undefined;
  /** When this session was made: a fork's turns that began before are its parent's (forkPrefix.ts). */
  private readonly madeAt: number | undefined;
  /** Reading a fork's copy of its parent's lines: they set the state, but are not this session's. */
  private replaying: boolean;
  private sessionEmitted = false;
  private at = 0;
  private model: string | undefined;
  private contextWindow: number | undefined;
  private turnId: string | undefined;
  private readonly ordinals = new Map<string, number>();
  private readonly keys = new Set<string>();
  private readonly tools = new Map<string, { item: ToolItem; settled: boolean }>();
  private readonly usages = new Set<string>();
  private afterCompacted = false;
  private lastAgentMessage: string | undefined;
  private webSearchEnd: { callId: string; query?: string } | undefined;
  private searches = 0;

  constructor(
    private readonly lines: Line[],
    meta: Json | undefined,
    sessionId: string,
  ) {
    this.meta = meta;
    this.sessionId = sessionId;
    this.origin = (meta && text(meta.forked_from_id)) ?? this.sessionId;
    // Lines of releases before the wrapper have no time of their own: they are the session's.
    this.at = toEpochMs(meta?.timestamp) ?? 0;
    // Since 2025 the user's own input is an `event_msg`; before, only the model-visible message was kept.
    this.promptEvents = lines.some(
      (line) => line.type === 'event_msg' && line.payload.type === 'user_message',
    );
    this.firstModel = lines
      .map((line) => (line.type === 'turn_context' ? text(line.payload.model) : undefined))
      .find(Boolean);
    this.cwd =
      text(meta?.cwd) ??
      lines.map((line) => (line.type === 'turn_context' ? text(line.payload.cwd) : undefined)).find(Boolean);
    this.madeAt = uuidV7Time(this.sessionId) ?? toEpochMs(meta?.timestamp);
    // A fork names its parent, and its copy starts with the parent's meta. Without a line that says where
    // the copy ends (releases whose turns tell no time), a fork is read whole: keys still count each once.
    const forked =
      (meta !== undefined && text(meta.forked_from_id) !== undefined) ||
      lines.some(
        (line, index) =>
          index > 0 && line.type === 'session_meta' && sessionIdOf(line.payload) !== this.sessionId,
      );
    this.replaying = forked && lines.some((line) => this.opensOwnTurn(line) || isInheritedEnd(line));
  }

  /** Whether `line` opens a turn that began once this session was made. */
  private opensOwnTurn(line: Line): boolean {
    const turnId = turnIdOf(line);
    if (turnId === undefined || this.madeAt === undefined) return false;
    return turnIsOwn(turnId, line.payload.started_at, this.madeAt);
  }

  read(): SessionItem[] {
    for (const line of this.lines) {
      if (this.replaying && this.opensOwnTurn(line)) this.replaying = false;
      if (line.at !== undefined) this.at = line.at;
      const wasCompacted = this.afterCompacted;
      if (!(line.type === 'event_msg' && line.payload.type === 'token_count')) this.afterCompacted = false;
      switch (line.type) {
        case 'session_meta':
          this.session();
          break;
        case 'turn_context':
          this.model = text(line.payload.model) ?? this.model;
          this.turn(turnIdOf(line));
          break;
        case 'response_item':
          this.responseItem(line.payload);
          break;
        case 'event_msg':
          this.event(line.payload, wasCompacted);
          break;
        case 'compacted':
          this.push({ type: 'compact', sessionId: this.sessionId, at: this.at });
          this.compactSummary(text(line.payload.message));
          this.afterCompacted = true;
          break;
      }
      if (this.replaying && isInheritedEnd(line)) this.replaying = false;
    }
    return this.items;
  }

  private push(item: SessionItem): void {
    if (this.replaying) return;
    if (!this.sessionEmitted && item.type !== 'session') this.session();
    this.items.push(item);
  }

  /** The session, from this file's own meta (the first line); emitted once, before anything else. */
  private session(): void {
    if (this.sessionEmitted) return;
    this.sessionEmitted = true;
    const meta = this.meta ?? {};
    const item: Extract<SessionItem, { type: 'session' }> = {
      type: 'session',
      sessionId: this.sessionId,
      at: toEpochMs(meta.timestamp) ?? this.at,
    };
    if (this.cwd !== undefined) item.cwd = this.cwd;
    if (this.firstModel !== undefined) item.model = this.firstModel;
    // A subagent: `source: {subagent: {thread_spawn: {parent_thread_id, agent_role, ...}}}` (codex-rs/
    // protocol `SessionSource::SubAgent(SubAgentSource::ThreadSpawn)`); later releases repeat the role.
    const spawned = record(record(record(meta.source).subagent).thread_spawn);
    const spawnedBy = text(spawned.parent_thread_id);
    const role =
      text(spawned.agent_role) ??
      text(meta.agent_role) ??
      text(meta.agent_type) ??
      (spawnedBy === undefined ? undefined : 'subagent');
    if (role !== undefined) item.agentType = role;
    const parent = text(meta.forked_from_id) ?? spawnedBy;
    if (parent !== undefined && parent !== this.sessionId) item.parentSessionId = parent;
    this.items.push(item);
    const base = text(record(meta.base_instructions).text) ?? text(meta.instructions);
    if (base) this.items.push(this.contextPart('system_prompt', base, item.at));
  }

  private contextPart(
    category: 'system_prompt' | 'memory_files',
    content: string,
    at = this.at,
  ): Extract<SessionItem, { type: 'context' }> {
    return {
      type: 'context',
      sessionId: this.sessionId,
      at,
      category,
      key: textKey(content),
      chars: content.length,
    };
  }

  /** A message Codex adds to the conversation: the project's instructions, or its own (environment...). */
  private injected(message: string): void {
    const start = message.trimStart();
    if (MEMORY_PREFIXES.some((prefix) => start.startsWith(prefix)))
      this.push(this.contextPart('memory_files', message));
    else if (SYSTEM_PREFIXES.some((prefix) => start.startsWith(prefix)))
      this.push(this.contextPart('system_prompt', message));
  }

  private turn(turnId: string | undefined): void {
    if (turnId !== undefined) this.turnId = turnId;
  }

  private prompt(raw: string | undefined): void {
    if (raw === undefined || raw.trim() === '' || isInjected(raw)) return;
    // The one rule of what a prompt is (agents/userPrompt.ts), after Codex's own injected messages.
    const message = userPromptText(raw);
    if (message === undefined) return;
    const base = this.turnId ?? this.origin;
    const ordinal = this.ordinals.get(base) ?? 0;
    this.ordinals.set(base, ordinal + 1);
    const key = `codex:${base}:${ordinal}:${textKey(message)}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.push({ type: 'prompt', sessionId: this.sessionId, at: this.at, key, text: message });
  }

  /**
   * `CompactedItem.message`: a local compaction's summary after Codex's own handoff line (SUMMARY_PREFIX,
   * codex-rs/core/src/compact.rs); a remote compaction (OpenAI's models) leaves it empty.
   */
  private compactSummary(message: string | undefined): void {
    const summary = message?.startsWith(SUMMARY_PREFIX) ? message.slice(message.indexOf('\n') + 1) : message;
    if (summary?.trim())
      this.push({ type: 'compact-summary', sessionId: this.sessionId, at: this.at, text: summary });
  }

  /** The turn's report: `task_complete`'s `last_agent_message`, else its last `agent_message`. */
  private report(message: string | undefined): void {
    const text = message?.trim() ? message : this.lastAgentMessage;
    this.lastAgentMessage = undefined;
    if (text) this.push({ type: 'report', sessionId: this.sessionId, at: this.at, text });
  }

  private tool(call: ToolCall, useId: string): void {
    if (this.tools.has(useId)) return;
    const item: ToolItem = { type: 'tool', sessionId: this.sessionId, at: this.at, call: { ...call, useId } };
    this.tools.set(useId, { item, settled: false });
    this.push(item);
  }

  /** What the model was told: a first outcome, which an end event (the real exit) may still correct. */
  private output(callId: unknown, output: unknown): void {
    const entry = typeof callId === 'string' ? this.tools.get(callId) : undefined;
    if (!entry) return;
    const { call } = entry.item;
    if (entry.settled) {
      if (call.outcome && call.outcome.output === undefined && typeof output === 'string')
        call.outcome.output = parseToolText(output).output;
      return;
    }
    call.outcome = outcomeFromOutput(call.name, call.kind, output);
  }

  /** An end event's outcome wins: exec_command's own output may only say the process is still running. */
  private settle(callId: unknown, outcome: ToolOutcome): void {
    const entry = typeof callId === 'string' ? this.tools.get(callId) : undefined;
    if (!entry) return;
    const { call } = entry.item;
    const merged: ToolOutcome = { ...call.outcome, ...outcome };
    if (outcome.output === undefined && call.outcome?.output !== undefined)
      merged.output = call.outcome.output;
    if (call.name === 'apply_patch' && call.kind === 'write') {
      if (merged.failed) delete merged.created;
      else merged.created = true;
    }
    call.outcome = merged;
    entry.settled = true;
  }

  private responseItem(payload: Json): void {
    switch (payload.type) {
      case 'message': {
        const content = messageText(payload.content);
        if ((payload.role === 'user' || payload.role === 'developer') && content && isInjected(content))
          this.injected(content);
        else if (!this.promptEvents && payload.role === 'user') this.prompt(content);
        break;
      }
      case 'function_call': {
        const name = qualifiedName(text(payload.name) ?? '', payload.namespace);
        const callId = text(payload.call_id) ?? text(payload.id);
        if (name && callId) this.tool(codexToolCall(name, argumentsOf(payload.arguments)), callId);
        break;
      }
      case 'custom_tool_call': {
        const name = text(payload.name);
        const callId = text(payload.call_id) ?? text(payload.id);
        if (name && callId) this.tool(codexToolCall(name, text(payload.input) ?? ''), callId);
        break;
      }
      case 'local_shell_call': {
        const callId = text(payload.call_id) ?? text(payload.id);
        const action = record(payload.action);
        if (callId) this.tool(codexToolCall('local_shell', { command: action.command }), callId);
        break;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        this.output(payload.call_id, payload.output);
        break;
      case 'web_search_call':
        this.webSearch(payload);
        break;
    }
  }

  private webSearch(payload: Json): void {
    const action = record(payload.action);
    const query = text(action.query) ?? (Array.isArray(action.queries) ? text(action.queries[0]) : undefined);
    const call = codexToolCall('web_search', {});
    if (action.type === 'open_page' || action.type === 'find_in_page') {
      call.kind = 'fetch';
      const url = text(action.url);
      if (url !== undefined) call.input.url = url;
      const pattern = text(action.pattern);
      if (pattern !== undefined) call.input.query = pattern;
    } else if (query !== undefined) call.input.query = query;
    // The item has no call id in most releases; its `web_search_end` event, just before it, has one.
    const end = this.webSearchEnd;
    this.webSearchEnd = undefined;
    const useId =
      text(payload.id) ??
      (end && (end.query === undefined || end.query === query) ? end.callId : undefined) ??
      `codex:${this.turnId ?? this.origin}:search:${this.searches++}:${textKey(JSON.stringify(action))}`;
    this.tool(call, useId);
    if (payload.status === 'completed' || payload.status === 'failed')
      this.settle(useId, { failed: payload.status === 'failed' });
  }

  private event(payload: Json, afterCompacted: boolean): void {
    switch (payload.type) {
      case 'task_started':
      case 'turn_started':
        this.lastAgentMessage = undefined;
        this.turn(text(payload.turn_id));
        this.contextWindow = num(payload.model_context_window) ?? this.contextWindow;
        break;
      case 'user_message':
        if (payload.kind === undefined || payload.kind === 'plain') this.prompt(text(payload.message));
        break;
      case 'token_count':
        this.usage(record(payload.info));
        break;
      case 'exec_command_end': {
        const exitCode = num(payload.exit_code);
        const outcome: ToolOutcome = {
          failed: (exitCode !== undefined && exitCode !== 0) || payload.status === 'failed',
        };
        if (payload.status === 'declined') outcome.notRun = 'declined';
        if (exitCode !== undefined) outcome.exitCode = exitCode;
        const output =
          text(payload.aggregated_output) || text(payload.formatted_output) || text(payload.stdout);
        if (output) outcome.output = output;
        this.settle(payload.call_id, outcome);
        break;
      }
      case 'patch_apply_end': {
        const outcome: ToolOutcome = { failed: payload.success === false || payload.status === 'failed' };
        if (payload.status === 'declined') outcome.notRun = 'declined';
        const output = [text(payload.stdout), text(payload.stderr)].filter(Boolean).join('\n');
        if (output) outcome.output = output;
        this.settle(payload.call_id, outcome);
        break;
      }
      case 'mcp_tool_call_end': {
        const result = record(payload.result);
        const ok = 'Ok' in result ? record(result.Ok) : undefined;
        const outcome: ToolOutcome = { failed: ok === undefined || ok.isError === true };
        const body = ok ? mcpResultText(ok) : text(result.Err);
        if (body !== undefined) outcome[ok ? 'output' : 'error'] = body;
        this.settle(payload.call_id, outcome);
        break;
      }
      case 'web_search_end': {
        const callId = text(payload.call_id);
        if (callId !== undefined) this.webSearchEnd = { callId, query: text(payload.query) };
        break;
      }
      case 'agent_message': {
        const message = text(payload.message);
        if (message?.trim()) this.lastAgentMessage = message;
        break;
      }
      // `EventMsg::TurnComplete` (`TurnCompleteEvent.last_agent_message`), written `task_complete`.
      case 'task_complete':
      case 'turn_complete':
        this.report(text(payload.last_agent_message));
        break;
      case 'context_compacted':
        // Codex writes a `compacted` line, then this event: one compaction, once.
        if (!afterCompacted) this.push({ type: 'compact', sessionId: this.sessionId, at: this.at });
        break;
    }
  }

  /**
   * Context in use after a model call, as Codex's own gauge computes it: the last call's
   * `tokens_in_context_window()` (its `total_tokens`, input with cache plus output), not the session's
   * cumulative `total_token_usage`. Codex repeats `token_count` lines (rate-limit updates): each reading
   * is counted once.
   */
  private usage(info: Json): void {
    const last = record(info.last_token_usage);
    const contextTokens =
      num(last.total_tokens) ??
      (num(last.input_tokens) !== undefined
        ? (num(last.input_tokens) ?? 0) + (num(last.output_tokens) ?? 0)
        : undefined);
    if (contextTokens === undefined) return;
    const reading = JSON.stringify([info.total_token_usage ?? null, info.last_token_usage]);
    if (this.usages.has(reading)) return;
    this.usages.add(reading);
    this.contextWindow = num(info.model_context_window) ?? this.contextWindow;
    const item: Extract<SessionItem, { type: 'usage' }> = {
      type: 'usage',
      sessionId: this.sessionId,
      at: this.at,
      contextTokens,
    };
    if (this.contextWindow !== undefined) item.contextWindow = this.contextWindow;
    const model = text(info.model) ?? this.model;
    if (model !== undefined) item.model = model;
    this.push(item);
  }
}
