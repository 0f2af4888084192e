import { BatchInsert } from '../storage/batchInsert';
import { countEvents, firstNewEventId } from './eventCounters';
import { type ParsedChunk, REJECT_WIDTH, SESSION_WIDTH, TOOL_CALL_WIDTH } from './chunkParse';
import { ObservationWriter } from '../memory/observationWriter';
import { PromptRows } from './promptRows';
import { dropImportedActivity } from './sharedActivity';
import type { Store } from '../storage/store';

/** Writes a parsed chunk's rows (event counters, sessions, tool calls, prompts, observations, rejects) inside an open transaction. */
export class EventRowWriter {
  private readonly toolCalls: BatchInsert;
  private readonly sessionRows: BatchInsert;
  private readonly rejects: BatchInsert;

  constructor(private readonly store: Store) {
    this.toolCalls = new BatchInsert(
      store,
      'tool_calls',
      ['event_id', 'tool_use_id', 'session_id', 'tool_name', 'success', 'duration_ms', 'error', 'at'],
      'INSERT OR IGNORE',
    );
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
        'agent',
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
         cwd = coalesce(cwd, excluded.cwd),
         agent = coalesce(agent, excluded.agent)`,
    );
    this.rejects = new BatchInsert(store, 'rejects', [
      'file_id',
      'rejected_at',
      'offset',
      'length',
      'reason',
      'sample',
    ]);
  }

  /**
   * Write one chunk of `fileId`'s lines (consuming it: event indexes become ids in place), less what an import
   * recorded first; rejects are stamped `rejectedAt`.
   */
  write(parsed: ParsedChunk, fileId: number, rejectedAt: number): void {
    const prompts = new PromptRows(this.store, parsed.prompts);
    dropImportedActivity(this.store, parsed, prompts.claimingEvents());
    const firstEventId = firstNewEventId(this.store);
    const { events, toolCalls, sessions, rejects } = parsed;
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

    countEvents(this.store, events);

    for (let i = 0; i < toolCalls.length; i += TOOL_CALL_WIDTH) {
      toolCalls[i] = firstEventId + (toolCalls[i] as number);
      this.toolCalls.addFrom(toolCalls, i);
    }
    this.toolCalls.flush();

    prompts.write(firstEventId);

    for (let i = 0; i < sessions.length; i += SESSION_WIDTH) this.sessionRows.addFrom(sessions, i);
    this.sessionRows.flush();

    const stamp = [fileId, rejectedAt];
    for (let i = 0; i < rejects.length; i += REJECT_WIDTH) this.rejects.addFrom(rejects, i, stamp);
    this.rejects.flush();
  }
}
