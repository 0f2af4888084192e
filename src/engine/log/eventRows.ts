import { BatchInsert } from '../storage/batchInsert';
import { countEvents, firstNewEventId } from './eventCounters';
import { type ParsedChunk, REJECT_WIDTH } from './chunkParse';
import { ObservationWriter } from '../memory/observationWriter';
import { PromptRows } from './promptRows';
import { HookSessionRows } from './sessionRows';
import { ToolCallRows } from './toolCallRows';
import { dropImportedActivity } from './sharedActivity';
import type { Store } from '../storage/store';

/** Writes a parsed chunk's rows (event counters, sessions, tool calls, prompts, observations, rejects) inside an open transaction. */
export class EventRowWriter {
  private readonly toolCalls: ToolCallRows;
  private readonly sessionRows: HookSessionRows;
  private readonly rejects: BatchInsert;

  constructor(private readonly store: Store) {
    this.toolCalls = new ToolCallRows(store);
    this.sessionRows = new HookSessionRows(store);
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

    this.toolCalls.writeHookCalls(toolCalls, firstEventId);

    prompts.write(firstEventId);

    this.sessionRows.write(sessions);

    const stamp = [fileId, rejectedAt];
    for (let i = 0; i < rejects.length; i += REJECT_WIDTH) this.rejects.addFrom(rejects, i, stamp);
    this.rejects.flush();
  }
}
