import { BatchInsert } from './batchInsert';
import {
  EVENT_WIDTH,
  PROMPT_WIDTH,
  type ParsedChunk,
  REJECT_WIDTH,
  SESSION_WIDTH,
  TOOL_CALL_WIDTH,
} from './chunkParse';
import { ObservationWriter } from './memory/observationWriter';
import { PromptRows } from './promptRows';
import type { Store } from './store';

/** Writes a parsed chunk's rows (events, sessions, tool calls, prompts, observations, rejects) inside an open transaction. */
export class EventRowWriter {
  private readonly events: BatchInsert;
  private readonly toolCalls: BatchInsert;
  private readonly prompts: PromptRows;
  private readonly sessionRows: BatchInsert;
  private readonly rejects: BatchInsert;

  constructor(private readonly store: Store) {
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
    this.rejects = new BatchInsert(store, 'rejects', [
      'file_id',
      'offset',
      'length',
      'reason',
      'sample',
      'rejected_at',
    ]);
  }

  /** Write one chunk of `fileId`'s lines; its rejected lines are stamped `rejectedAt`. */
  write(parsed: ParsedChunk, fileId: number, rejectedAt: number): void {
    // Event ids are assigned here instead of asked back per row.
    const firstEventId = this.store.number('SELECT coalesce(max(id), 0) + 1 FROM events');
    const { events, toolCalls, prompts, sessions, rejects } = parsed;
    // First, so the summariser reads its sessions' state as it was before this chunk.
    if (parsed.memory.length > 0) {
      const observations = new ObservationWriter(this.store);
      const sessionIds = new Set<string>();
      for (const { sessionId } of parsed.memory) if (sessionId) sessionIds.add(sessionId);
      observations.loadSessions(sessionIds);
      for (const { event, sessionId, at, item } of parsed.memory)
        observations.add(item, firstEventId + event, sessionId, at);
      observations.flush();
    }

    for (let i = 0; i < events.length; i += EVENT_WIDTH)
      this.events.add([firstEventId + i / EVENT_WIDTH, fileId, ...events.slice(i, i + EVENT_WIDTH)]);
    this.events.flush();

    for (let i = 0; i < toolCalls.length; i += TOOL_CALL_WIDTH) {
      const row = toolCalls.slice(i, i + TOOL_CALL_WIDTH);
      row[0] = firstEventId + (row[0] as number);
      this.toolCalls.add(row);
    }
    this.toolCalls.flush();

    for (let i = 0; i < prompts.length; i += PROMPT_WIDTH) {
      this.prompts.add({
        eventId: firstEventId + (prompts[i] as number),
        sessionId: prompts[i + 1] as string | null,
        text: prompts[i + 2] as string,
        at: prompts[i + 3] as number,
      });
    }
    this.prompts.flush();

    for (let i = 0; i < sessions.length; i += SESSION_WIDTH)
      this.sessionRows.add(sessions.slice(i, i + SESSION_WIDTH));
    this.sessionRows.flush();

    for (let i = 0; i < rejects.length; i += REJECT_WIDTH)
      this.rejects.add([fileId, ...rejects.slice(i, i + REJECT_WIDTH), rejectedAt]);
    this.rejects.flush();
  }
}
