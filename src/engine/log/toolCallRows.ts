/**
 * The one writer of the tool_calls table, for both of its sources: hook events (a chunk of the event log,
 * with their event ids) and imports of past sessions (no event id). A call is unique on its call id
 * (tool_use_id), so whichever source comes second adds nothing. A hook that sends no call id (Cline's) is
 * matched instead to a call of the same session and tool near in time that the other source recorded, one
 * to one: the second record claims the first row rather than adding one.
 */
import type { SqlValue } from 'sql.js';
import { BatchInsert } from '../storage/batchInsert';
import type { Store } from '../storage/store';
import { TOOL_CALL_WIDTH } from './chunkParse';

const COLUMNS = [
  'event_id',
  'tool_use_id',
  'session_id',
  'tool_name',
  'success',
  'duration_ms',
  'error',
  'at',
];

/**
 * How far apart the two records of one call without a call id may be: an import dates a call by the model's
 * message asking for it, a hook by when the tool finished, after the user approved it.
 */
const UNKEYED_CALL_MS = 10 * 60_000;

/** The unclaimed row of the other source nearest `at`, same session and tool (params: session, name, at). */
const NEAREST = (other: string) => `
  SELECT rowid FROM tool_calls
  WHERE ${other} AND session_id = ?1 AND tool_name = ?2 AND at BETWEEN ?3 - ${UNKEYED_CALL_MS} AND ?3 + ${UNKEYED_CALL_MS}
  ORDER BY abs(at - ?3) LIMIT 1`;

export interface ImportedToolCall {
  useId: string;
  sessionId: string;
  name: string;
  failed: boolean;
  durationMs: number | null;
  /** As stored: redacted and clipped (`storedText`). */
  error: string | null;
  at: number;
}

export class ToolCallRows {
  private readonly rows: BatchInsert;

  constructor(private readonly store: Store) {
    this.rows = new BatchInsert(store, 'tool_calls', COLUMNS, 'INSERT OR IGNORE');
  }

  /** A chunk's calls (chunkParse's flat `toolCalls`), their event indexes turned into ids in place. */
  writeHookCalls(calls: Array<number | string | null>, firstEventId: number): void {
    for (let i = 0; i < calls.length; i += TOOL_CALL_WIDTH) {
      calls[i] = firstEventId + (calls[i] as number);
      // A call without an id (Cline's hooks): one indexed look-up (tool_calls_by_tool) for an import's row.
      if (calls[i + 1] === null && calls[i + 2] !== null && this.claimImported(calls, i)) continue;
      this.rows.addFrom(calls, i);
    }
    this.rows.flush();
  }

  /** An id-less hook call takes over the row an import wrote for it, with the hook's outcome; false if none. */
  private claimImported(calls: ReadonlyArray<number | string | null>, i: number): boolean {
    const [eventId, , sessionId, name, success, durationMs, error, at] = calls.slice(i, i + TOOL_CALL_WIDTH);
    this.store.run(
      `UPDATE tool_calls SET event_id = ?4, success = ?5, duration_ms = coalesce(?6, duration_ms), error = ?7
       WHERE rowid = (${NEAREST('event_id IS NULL AND tool_use_id IS NOT NULL')})`,
      [sessionId, name, at, eventId, success, durationMs, error],
    );
    return this.store.number('SELECT changes()') > 0;
  }

  /** Imported calls that id-less hook calls recorded first: each such hook row takes the call's id. */
  private claimHookCalls(calls: readonly ImportedToolCall[]): void {
    if (calls.length === 0) return;
    // Only where some hook of that time sent no id (Cline's): other imports pay one look-up by time.
    let first = Infinity;
    let last = -Infinity;
    for (const call of calls) [first, last] = [Math.min(first, call.at), Math.max(last, call.at)];
    const unkeyed = this.store.get(
      `SELECT 1 AS found FROM tool_calls WHERE at BETWEEN ?1 - ${UNKEYED_CALL_MS} AND ?2 + ${UNKEYED_CALL_MS}
         AND tool_use_id IS NULL AND event_id IS NOT NULL LIMIT 1`,
      [first, last],
    );
    if (unkeyed === undefined) return;
    // Then one indexed look-up a call (tool_calls_by_tool).
    for (const call of calls)
      this.store.run(
        `UPDATE tool_calls SET tool_use_id = ?4
         WHERE NOT EXISTS (SELECT 1 FROM tool_calls WHERE tool_use_id = ?4)
           AND rowid = (${NEAREST('tool_use_id IS NULL AND event_id IS NOT NULL')})`,
        [call.sessionId, call.name, call.at, call.useId],
      );
  }

  /** Calls an import read; returns how many rows were added, and how many of those failed. */
  writeImportedCalls(calls: readonly ImportedToolCall[]): { added: number; failures: number } {
    this.claimHookCalls(calls);
    const changes = () => this.store.number('SELECT total_changes()');
    const before = changes();
    for (const call of calls) if (!call.failed) this.rows.add(importedRow(call));
    this.rows.flush();
    const afterSuccesses = changes();
    for (const call of calls) if (call.failed) this.rows.add(importedRow(call));
    this.rows.flush();
    return { added: changes() - before, failures: changes() - afterSuccesses };
  }
}

function importedRow(call: ImportedToolCall): SqlValue[] {
  return [
    null,
    call.useId,
    call.sessionId,
    call.name,
    call.failed ? 0 : 1,
    call.durationMs,
    call.error,
    call.at,
  ];
}

/** Which of these call ids are recorded already: by either source, or only by an import. */
export function recordedCalls(store: Store, useIds: readonly string[], importedOnly = false): Set<string> {
  if (useIds.length === 0) return new Set();
  const rows = store.all(
    `SELECT tool_use_id FROM tool_calls WHERE tool_use_id IN (SELECT value FROM json_each(?))
     ${importedOnly ? 'AND event_id IS NULL' : ''}`,
    [JSON.stringify(useIds)],
  );
  return new Set(rows.map((row) => String(row.tool_use_id)));
}
