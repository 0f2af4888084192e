/**
 * The database-free half of ingestion: one chunk of complete log lines parsed, routed and turned into row
 * values and memory items. Needs no database, so it runs on a parse worker for large backlogs (see
 * chunkReaders.ts) as well as inline; the writer (eventRows.ts) applies the result in one transaction.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import {
  EMPTY_INPUT,
  type EventPayload,
  MAX_LINE_BYTES,
  parseEventLine,
  recorderFields,
  sampleOf,
  stringField,
  toEpochMs,
} from '../events/eventLine';
import { readCompleteLines } from './logChunks';
import { normalisePayload } from '../agents/payloads';
import type { AgentEvent } from '../agents/types';
import { userPromptText } from '../agents/userPrompt';
import type { AgentId } from '../../shared/agents';
import { type MemoryItem, analyseAgentEvent, analyseMemoryEvent } from '../memory/eventMemory';
import { isMemoryEvent } from '../memory/types';
import { redactText } from '../redact';
import type { Router } from './routing';

/** Row values of a chunk, flat (a few arrays of primitives cross between threads far faster than objects). */
export interface ParsedChunk {
  /** Per event routed here: received_at, agent (what the event counters keep). Event ids are assigned by the writer. */
  events: Array<number | string | null>;
  /** Per tool call: event index in the chunk, tool_use_id, session_id, tool_name, success, duration_ms, error, at. */
  toolCalls: Array<number | string | null>;
  /** Per prompt: event index, session_id, text, at. */
  prompts: Array<number | string | null>;
  /** Per session met: id, started_at, last_event_at, ended_at, end_reason, model, source, transcript_path, cwd, agent. */
  sessions: Array<number | string | null>;
  /** In event order. */
  memory: Array<{ event: number; sessionId: string | null; at: number; item: MemoryItem }>;
  /** Per line that is no event: offset, length, reason, sample. */
  rejects: Array<number | string>;
  /** Lines that belong to other projects (or to none), left for them. */
  foreign: number;
}

export const EVENT_WIDTH = 2;
export const TOOL_CALL_WIDTH = 8;
export const PROMPT_WIDTH = 4;
export const SESSION_WIDTH = 10;
export const REJECT_WIDTH = 4;

/** The longest error or prompt text kept in a row; the event log keeps the whole payload. */
const MAX_TEXT = 8_000;

/**
 * A prompt or error text as a row keeps it: redacted (again: a log written by an earlier recorder may hold what
 * today's rules catch), then clipped. Imports store theirs the same way, so one prompt from both compares equal.
 */
export function storedText(text: string): string {
  const redacted = redactText(text).text;
  return redacted.length > MAX_TEXT ? `${redacted.slice(0, MAX_TEXT)}…` : redacted;
}

function errorText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return storedText(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Session facts gathered over one chunk and written once per session, not once per event. */
interface SessionFacts {
  agent: AgentId;
  first: number;
  last: number;
  endedAt?: number;
  endReason?: string;
  model?: string;
  source?: string;
  transcriptPath?: string;
  cwd?: string;
}

const NEWLINE = 0x0a;

/** The next chunk of a log file, parsed (an over-long line is a chunk of one reject); or nothing complete yet. */
export type ChunkRead = { kind: 'none' } | { kind: 'lines'; length: number; parsed: ParsedChunk };

function emptyChunk(): ParsedChunk {
  return { events: [], toolCalls: [], prompts: [], sessions: [], memory: [], rejects: [], foreign: 0 };
}

export function readChunk(
  fd: number,
  offset: number,
  chunkBytes: number,
  ingestedAt: number,
  belongsHere: Router,
): ChunkRead {
  // Taken before the read: every line read was appended by then.
  const stat = fs.fstatSync(fd);
  const appendedBy = Math.ceil(stat.mtimeMs);
  const chunk = readCompleteLines(fd, offset, chunkBytes, stat.size);
  switch (chunk.kind) {
    case 'none':
      return chunk;
    case 'lines':
      return {
        kind: 'lines',
        length: chunk.length,
        parsed: parseChunk(chunk.bytes, offset, ingestedAt, belongsHere, appendedBy),
      };
    case 'oversized': {
      const parsed = emptyChunk();
      const reason = `line of ${chunk.length} bytes is over the ${MAX_LINE_BYTES / 1024 / 1024} MiB limit`;
      parsed.rejects.push(offset, chunk.length, reason, chunk.sample);
      return { kind: 'lines', length: chunk.length, parsed };
    }
  }
}

/**
 * Parse `bytes` (complete lines, each ending in a newline) read at `baseOffset` of a log file. Events
 * without a recorder timestamp are received at `ingestedAt`. A timestamp after `appendedBy` (the file's
 * last change when it was read: no line was appended later) came from a wrong clock, a 2099 that would stay
 * "just now" on top of every list: it is taken as `appendedBy`. The file's time, not the time of reading, so
 * that a rebuild of a file no longer written to gives the same times.
 */
function parseChunk(
  buffer: Buffer,
  baseOffset: number,
  ingestedAt: number,
  belongsHere: Router,
  appendedBy: number,
): ParsedChunk {
  const parsed = emptyChunk();
  const sessions = new Map<string, SessionFacts>();
  const reject = (offset: number, length: number, reason: string, sample: string) =>
    parsed.rejects.push(offset, length, reason, sample);

  const line = (text: string, offset: number, length: number) => {
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    const result = parseEventLine(text);
    if (!result.ok) {
      reject(offset, length, result.reason, sampleOf(text));
      return;
    }
    const payload = result.payload;
    // Payloads without Claude Code's `cwd` say their folder in their own way (Cline: `workspaceRoots`).
    const cwd =
      stringField(payload, 'cwd') ??
      (stringField(payload, 'hook_event_name') === undefined
        ? normalisePayload(payload, recorderFields(payload).agent)?.cwd
        : undefined);
    const unreadable = recorderFields(payload).error;
    // A hook run with nothing on stdin lost nothing: only a payload that could not be read is shown.
    if (cwd === undefined && typeof unreadable === 'string' && unreadable !== EMPTY_INPUT) {
      // No project can be told from it: every project's ingest shows it, rather than none.
      reject(offset, length, `the recorder could not read this payload: ${unreadable}`, sampleOf(text));
      return;
    }
    if (cwd === undefined || !belongsHere(cwd)) {
      parsed.foreign++;
      return;
    }
    const stamped = toEpochMs(recorderFields(payload).ts);
    const at = stamped === undefined ? ingestedAt : Math.min(stamped, appendedBy);
    addEvent(parsed, sessions, payload, at);
  };

  if (isAscii(buffer)) {
    // Most chunks are ASCII: decoded once, their lines are slices whose character offsets are byte offsets.
    const text = buffer.toString('latin1');
    for (let start = 0; start < text.length;) {
      const newline = text.indexOf('\n', start);
      line(text.slice(start, newline), baseOffset + start, newline + 1 - start);
      start = newline + 1;
    }
  } else {
    const allValidUtf8 = isUtf8(buffer);
    for (let start = 0; start < buffer.length;) {
      const newline = buffer.indexOf(NEWLINE, start);
      const offset = baseOffset + start;
      if (!allValidUtf8 && !isUtf8(buffer.subarray(start, newline))) {
        const sample = sampleOf(buffer.toString('utf8', start, Math.min(newline, start + 400)));
        reject(offset, newline + 1 - start, 'not valid UTF-8', sample);
      } else {
        line(buffer.toString('utf8', start, newline), offset, newline + 1 - start);
      }
      start = newline + 1;
    }
  }

  for (const [id, facts] of sessions) {
    parsed.sessions.push(
      id,
      facts.first,
      facts.last,
      facts.endedAt ?? null,
      facts.endReason ?? null,
      facts.model ?? null,
      facts.source ?? null,
      facts.transcriptPath ?? null,
      facts.cwd ?? null,
      facts.agent,
    );
  }
  return parsed;
}

function addEvent(
  parsed: ParsedChunk,
  sessions: Map<string, SessionFacts>,
  payload: EventPayload,
  at: number,
): void {
  const name = stringField(payload, 'hook_event_name') ?? 'unknown';
  const event = parsed.events.length / EVENT_WIDTH;
  if (isMemoryEvent(name)) {
    // The memory's own writes: no agent's event, and no session's activity.
    const sessionId = stringField(payload, 'session_id') ?? null;
    parsed.events.push(at, null);
    const item = analyseMemoryEvent(payload, name);
    if (item) parsed.memory.push({ event, sessionId, at, item });
    return;
  }
  const agentEvent = normalisePayload(payload, recorderFields(payload).agent);
  const sessionId = agentEvent?.sessionId ?? null;
  parsed.events.push(at, agentEvent?.agent ?? null);
  if (!agentEvent) return;
  if (sessionId) noteSession(sessions, sessionId, agentEvent, at);

  const item = analyseAgentEvent(agentEvent);
  if (item) parsed.memory.push({ event, sessionId, at, item });

  const { tool } = agentEvent;
  switch (agentEvent.kind) {
    case 'tool-end':
    case 'tool-failed': {
      // A call that never ran is no use of the tool, and no failure of it.
      if (!tool || tool.outcome?.notRun) break;
      const failed = agentEvent.kind === 'tool-failed' || tool.outcome?.failed === true;
      parsed.toolCalls.push(
        event,
        tool.useId ?? null,
        sessionId,
        tool.name,
        failed ? 0 : 1,
        tool.outcome?.durationMs ?? null,
        failed ? errorText(tool.outcome?.error) : null,
        at,
      );
      break;
    }
    case 'prompt': {
      // A typed `/mcp` or an interruption notice is no prompt: one rule for import, gauge and memory.
      const prompt = agentEvent.prompt === undefined ? undefined : userPromptText(agentEvent.prompt);
      if (prompt !== undefined) parsed.prompts.push(event, sessionId, storedText(prompt), at);
      break;
    }
  }
}

function noteSession(sessions: Map<string, SessionFacts>, id: string, event: AgentEvent, at: number): void {
  let facts = sessions.get(id);
  if (!facts) {
    facts = { agent: event.agent, first: at, last: at };
    sessions.set(id, facts);
  }
  facts.first = Math.min(facts.first, at);
  facts.last = Math.max(facts.last, at);
  facts.transcriptPath ??= event.transcriptPath;
  facts.cwd ??= event.cwd;
  if (event.kind === 'session-start') {
    facts.model = event.model ?? facts.model;
    facts.source ??= event.source;
  } else if (event.kind === 'session-end') {
    facts.endedAt = at;
    facts.endReason = event.endReason ?? facts.endReason;
  }
}
