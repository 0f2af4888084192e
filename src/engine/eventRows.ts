import { BatchInsert } from './batchInsert';
import { type EventPayload, stringField } from './eventLine';
import { ObservationWriter } from './memory/observationWriter';
import { PromptRows } from './promptRows';
import type { Store } from './store';

/** Session facts gathered over one chunk and written once per session, not once per event. */
interface SessionFacts {
  first: number;
  last: number;
  endedAt?: number;
  endReason?: string;
  model?: string;
  source?: string;
  transcriptPath?: string;
  cwd?: string;
}

/** The longest error or prompt text kept in a row; the event log keeps the whole payload. */
const MAX_TEXT = 8_000;

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

function errorText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return clip(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Derives sessions, tool calls and prompts from hook payloads inside an open transaction. */
export class EventRowWriter {
  private sessions = new Map<string, SessionFacts>();
  private nextEventId = 0;
  private readonly events: BatchInsert;
  private readonly toolCalls: BatchInsert;
  private readonly prompts: PromptRows;
  private readonly sessionRows: BatchInsert;
  private readonly observations: ObservationWriter;

  constructor(private readonly store: Store) {
    this.observations = new ObservationWriter(store);
    this.events = new BatchInsert(store, 'events', [
      'id',
      'file_id',
      'offset',
      'received_at',
      'session_id',
      'kind',
    ]);
    this.toolCalls = new BatchInsert(
      store,
      'tool_calls',
      ['event_id', 'tool_use_id', 'session_id', 'tool_name', 'success', 'duration_ms', 'error', 'at'],
      'INSERT OR IGNORE',
    );
    this.prompts = new PromptRows(store);
    this.sessionRows = new BatchInsert(
      store,
      'sessions',
      [
        'id',
        'started_at',
        'last_event_at',
        'ended_at',
        'end_reason',
        'model',
        'source',
        'transcript_path',
        'cwd',
      ],
      'INSERT',
      `ON CONFLICT(id) DO UPDATE SET
         started_at = min(started_at, excluded.started_at),
         last_event_at = max(last_event_at, excluded.last_event_at),
         ended_at = coalesce(excluded.ended_at, ended_at),
         end_reason = coalesce(excluded.end_reason, end_reason),
         model = coalesce(excluded.model, model),
         source = coalesce(source, excluded.source),
         transcript_path = coalesce(transcript_path, excluded.transcript_path),
         cwd = coalesce(cwd, excluded.cwd)`,
    );
  }

  /** Call at the start of each transaction: event ids are assigned here instead of asked back per row. */
  begin(): void {
    this.nextEventId = this.store.number('SELECT coalesce(max(id), 0) + 1 FROM events');
  }

  /** Read what the summariser knows of these sessions, all at once. */
  loadSessions(sessionIds: Iterable<string>): void {
    this.observations.loadSessions(sessionIds);
  }

  /** Record one event routed to this project and everything derived from it. */
  add(payload: EventPayload, fileId: number, offset: number, at: number): void {
    const kind = stringField(payload, 'hook_event_name') ?? 'unknown';
    const sessionId = stringField(payload, 'session_id') ?? null;
    const eventId = this.nextEventId++;
    this.events.add([eventId, fileId, offset, at, sessionId, kind]);

    if (sessionId) this.noteSession(sessionId, payload, kind, at);
    this.observations.add(payload, eventId, sessionId, kind, at);

    switch (kind) {
      case 'PostToolUse':
      case 'PostToolUseFailure': {
        const toolName = stringField(payload, 'tool_name');
        if (!toolName) break;
        const failed = kind === 'PostToolUseFailure';
        const duration = payload.duration_ms;
        this.toolCalls.add([
          eventId,
          stringField(payload, 'tool_use_id') ?? null,
          sessionId,
          toolName,
          failed ? 0 : 1,
          typeof duration === 'number' && Number.isFinite(duration) ? Math.round(duration) : null,
          failed ? errorText(payload.error) : null,
          at,
        ]);
        break;
      }
      case 'UserPromptSubmit': {
        const prompt = stringField(payload, 'prompt');
        if (prompt !== undefined) this.prompts.add({ eventId, sessionId, text: clip(prompt), at });
        break;
      }
    }
  }

  private noteSession(id: string, payload: EventPayload, kind: string, at: number): void {
    let facts = this.sessions.get(id);
    if (!facts) {
      facts = { first: at, last: at };
      this.sessions.set(id, facts);
    }
    facts.first = Math.min(facts.first, at);
    facts.last = Math.max(facts.last, at);
    facts.transcriptPath ??= stringField(payload, 'transcript_path');
    facts.cwd ??= stringField(payload, 'cwd');
    if (kind === 'SessionStart') {
      facts.model = stringField(payload, 'model') ?? facts.model;
      facts.source ??= stringField(payload, 'source');
    } else if (kind === 'SessionEnd') {
      facts.endedAt = at;
      facts.endReason = stringField(payload, 'reason') ?? facts.endReason;
    }
  }

  /** Write buffered rows and the gathered session facts; call before the chunk's transaction commits. */
  flush(): void {
    this.events.flush();
    this.toolCalls.flush();
    this.prompts.flush();
    this.observations.flush();
    for (const [id, facts] of this.sessions) {
      this.sessionRows.add([
        id,
        facts.first,
        facts.last,
        facts.endedAt ?? null,
        facts.endReason ?? null,
        facts.model ?? null,
        facts.source ?? null,
        facts.transcriptPath ?? null,
        facts.cwd ?? null,
      ]);
    }
    this.sessionRows.flush();
    this.sessions.clear();
  }
}
