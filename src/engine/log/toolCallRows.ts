/**
 * The one writer of the tool_calls table, for both of its sources: hook events (a chunk of the event log,
 * with their event ids) and imports of past sessions (no event id). A call is unique on its call id
 * (tool_use_id), so whichever source comes second adds nothing.
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
      this.rows.addFrom(calls, i);
    }
    this.rows.flush();
  }

  /** Calls an import read; returns how many rows were added, and how many of those failed. */
  writeImportedCalls(calls: readonly ImportedToolCall[]): { added: number; failures: number } {
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
