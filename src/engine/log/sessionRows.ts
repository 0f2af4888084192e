/**
 * The one writer of the sessions table, for both of its sources: hook events (a chunk's sessions, all their
 * columns) and imports of past sessions. Either widens a session's span and fills in what it did not know;
 * the first value of a fact that does not change (where it started, its transcript, its agent) is kept.
 */
import { BatchInsert } from '../storage/batchInsert';
import type { Store } from '../storage/store';
import { SESSION_WIDTH } from './chunkParse';

/** What an import learned of a session. */
export interface ImportedSession {
  first: number;
  last: number;
  model?: string;
  transcriptPath?: string;
  cwd?: string;
  agent: string;
  /** When the file says the session ended, and how. */
  ended?: number;
  endReason?: string;
}

/** A session an import read, and whether it is new to the database. */
export function writeImportedSession(store: Store, id: string, session: ImportedSession): boolean {
  const added = !store.get('SELECT 1 AS found FROM sessions WHERE id = ?', [id]);
  store.run(
    `INSERT INTO sessions (id, started_at, last_event_at, model, transcript_path, cwd, agent, ended_at, end_reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET
       started_at = min(started_at, excluded.started_at),
       last_event_at = max(last_event_at, excluded.last_event_at),
       ended_at = coalesce(excluded.ended_at, ended_at),
       end_reason = coalesce(excluded.end_reason, end_reason),
       model = coalesce(excluded.model, model),
       transcript_path = coalesce(transcript_path, excluded.transcript_path),
       cwd = coalesce(cwd, excluded.cwd),
       agent = coalesce(agent, excluded.agent)`,
    [
      id,
      session.first,
      session.last,
      session.model ?? null,
      session.transcriptPath ?? null,
      session.cwd ?? null,
      session.agent,
      session.ended ?? null,
      session.ended === undefined ? null : (session.endReason ?? null),
    ],
  );
  return added;
}

/** A chunk's sessions (chunkParse's flat `sessions`), hook events having said more of them. */
export class HookSessionRows {
  private readonly rows: BatchInsert;

  constructor(store: Store) {
    this.rows = new BatchInsert(
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
  }

  write(sessions: Array<number | string | null>): void {
    for (let i = 0; i < sessions.length; i += SESSION_WIDTH) this.rows.addFrom(sessions, i);
    this.rows.flush();
  }
}

/**
 * Imported sessions never ended by a SessionEnd hook end at their last line once it is older than `before`,
 * so they get a summary; one that grew since is moved on or opened again. Returns how many changed.
 */
export function endIdleImportedSessions(store: Store, before: number, reason: string): number {
  const changesBefore = store.number('SELECT total_changes()');
  store.run(
    `UPDATE sessions SET
       ended_at = CASE WHEN last_event_at < ?1 THEN last_event_at END,
       end_reason = CASE WHEN last_event_at < ?1 THEN ?2 END
     WHERE transcript_path IN (SELECT path FROM transcript_files)
       AND (ended_at IS NULL OR end_reason = ?2)
       AND ended_at IS NOT (CASE WHEN last_event_at < ?1 THEN last_event_at END)`,
    [before, reason],
  );
  return store.number('SELECT total_changes()') - changesBefore;
}
