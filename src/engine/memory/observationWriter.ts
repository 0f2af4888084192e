/**
 * Turns the events of one ingest chunk into observation rows, inside the chunk's transaction: so an event's
 * observations are committed exactly when the event is. Also applies the memory's own events (save,
 * forget, restore). Session state (memory_sessions) is read from the database when a chunk first meets a
 * session and written back with the chunk, never kept in memory across chunks, so a rolled-back chunk, a
 * rebuild from the log and live ingestion split anywhere all give the same result.
 */
import { BatchInsert } from '../storage/batchInsert';
import type { Store } from '../storage/store';
import type { SqlValue } from 'sql.js';
import type { MemoryItem } from './eventMemory';
import { derivedId } from './ids';
import { OpenChecks } from './resolution';
import { type SessionState, resolveDraft } from './summarise';
import { words } from './text';
import { isObservationType } from './types';
import { addToSearchIndex, indexedText, removeFromSearchIndex } from './searchIndex/indexWrites';
import type { IndexedText } from './searchIndex/postings';
/** A derived observation this similar to one of the last few is a near duplicate (seed: 20 and 0.85). */
const RECENT_WINDOW = 20;
const DUPLICATE_OVERLAP = 0.85;
/** Sources of which a session keeps only its latest (summarise.ts marks them `latestOfSession`). */
const LATEST_OF_SESSION = "'report', 'compact-summary'";

/** Whether two word sets overlap (Jaccard) at least DUPLICATE_OVERLAP. */
function nearDuplicate(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  // Overlap can't exceed |small| / |large|: most pairs are settled without looking at a word.
  if (small.size < DUPLICATE_OVERLAP * large.size) return false;
  if (large.size === 0) return true;
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / (small.size + large.size - shared) >= DUPLICATE_OVERLAP;
}

export class ObservationWriter {
  private started = false;
  private nextSeq = 0;
  /** Word sets of the latest observations, newest last. */
  private recent: Array<Set<string>> = [];
  private sessions = new Map<string, SessionState>();
  /** Sessions whose state this chunk changed, stored at flush. */
  private changedSessions = new Set<string>();
  private readonly rows: BatchInsert;
  private readonly sessionRows: BatchInsert;
  /** Observations of this chunk, with their words, for the search index once they are in the table. */
  private unindexed: IndexedText[] = [];
  /** The chunk's latest report and compaction summary of each session, replacing the stored ones at flush. */
  private readonly latest = new Map<string, SqlValue[]>();
  private readonly openChecks: OpenChecks;

  constructor(private readonly store: Store) {
    this.rows = new BatchInsert(
      store,
      'observations',
      [
        'seq',
        'id',
        'event_id',
        'session_id',
        'agent_type',
        'type',
        'source',
        'text',
        'tokens',
        'at',
        'file',
        'file_hash',
        'open_key',
      ],
      'INSERT OR IGNORE',
    );
    this.openChecks = new OpenChecks(store, () => this.rows.flush());
    this.sessionRows = new BatchInsert(
      store,
      'memory_sessions',
      ['session_id', 'intent', 'check_failed'],
      'INSERT',
      'ON CONFLICT (session_id) DO UPDATE SET intent = excluded.intent, check_failed = excluded.check_failed',
    );
  }

  private start(): void {
    this.started = true;
    this.nextSeq = this.store.number('SELECT coalesce(max(seq), 0) + 1 FROM observations');
    this.recent = this.store
      .all(
        `SELECT text FROM observations WHERE source NOT IN (${LATEST_OF_SESSION})
         ORDER BY seq DESC LIMIT ${RECENT_WINDOW}`,
      )
      .reverse()
      .map((row) => new Set(words(String(row.text))));
  }

  /**
   * What one routed event means for the memory (see analyseForMemory), applied in event order. `eventId` is
   * null for what a transcript import derived (its lines are not in the event log).
   */
  add(item: MemoryItem, eventId: number | null, sessionId: string | null, at: number): void {
    if ('forgotten' in item) {
      this.setForgotten(item.ids, item.forgotten ? at : null);
      return;
    }
    if ('kept' in item) {
      this.keep(item.kept);
      return;
    }
    const template = item.draft;
    const draft = resolveDraft(template, this.session(sessionId));
    if (template.intent || template.check) this.changedSessions.add(sessionId ?? '');
    if (!this.started) this.start();
    const outcome = template.outcome;
    // A pass settles the failures of the same check before it; the failure it follows is not a duplicate.
    if (outcome && !outcome.failed) this.openChecks.pass(outcome.identity, at);
    if (template.silent) return;
    const tokens = words(draft.text);
    const wordSet = new Set(tokens);
    const reopens = outcome?.failed === true && !this.openChecks.isOpen(outcome.identity);
    if (
      !item.id &&
      !template.latestOfSession &&
      !reopens &&
      this.recent.some((earlier) => nearDuplicate(wordSet, earlier))
    )
      return;
    // A session's latest report or summary is replaced by the next: it is no earlier observation to repeat.
    if (!template.latestOfSession) {
      this.recent.push(wordSet);
      if (this.recent.length > RECENT_WINDOW) this.recent.shift();
    }
    const openKey = outcome?.failed ? this.openChecks.open(outcome.identity) : null;
    const row = [
      0,
      // A session's latest report (or summary) has one id, so the next one replaces it.
      item.id ??
        derivedId(
          template.latestOfSession
            ? `latest\u0000${sessionId ?? ''}\u0000${draft.source}`
            : `${sessionId ?? ''}\u0000${at}\u0000${draft.text}`,
        ),
      eventId,
      sessionId,
      draft.agentType,
      draft.type,
      draft.source,
      draft.text,
      tokens.length,
      at,
      template.file ?? null,
      template.fileHash ?? null,
      openKey,
    ];
    if (template.latestOfSession) {
      this.latest.set(String(row[1]), row);
      return;
    }
    row[0] = this.nextSeq++;
    this.rows.add(row);
    this.unindexed.push({ seq: Number(row[0]), words: tokens });
  }

  /** The user keeps agents' notes as their own decisions: from then on they are the user's notes. */
  private keep(ids: readonly string[]): void {
    this.flush();
    this.store.run(
      `UPDATE observations SET source = 'saved', type = 'decision'
       WHERE source = 'agent-note' AND id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ids)],
    );
  }

  /** A session's latest report or compaction summary replaces the one stored before (its index entry too). */
  private writeLatest(): void {
    if (this.latest.size === 0) return;
    for (const [id, row] of this.latest) {
      const earlier = this.store.get('SELECT seq, text, at FROM observations WHERE id = ?', [id]);
      // Told again (a re-import, a rebuild, the hooks and the transcript of one turn), the first stays; an
      // older one (a stale file imported after the hooks recorded a later turn) never replaces a newer.
      if (earlier && (earlier.text === row[7] || Number(earlier.at) > Number(row[9]))) continue;
      if (earlier) {
        removeFromSearchIndex(this.store, [indexedText(Number(earlier.seq), String(earlier.text))]);
        this.store.run('DELETE FROM observations WHERE seq = ?', [earlier.seq]);
      }
      row[0] = this.nextSeq++;
      this.rows.add(row);
      this.unindexed.push(indexedText(Number(row[0]), String(row[7])));
    }
    this.latest.clear();
  }

  /**
   * Read the state of the chunk's sessions from the database in one query (each query costs tens of
   * microseconds in sql.js, so not one per session). Sessions not read here are read when first met.
   */
  loadSessions(sessionIds: Iterable<string>): void {
    const unread = [...new Set(sessionIds)].filter((id) => !this.sessions.has(id));
    if (unread.length === 0) return;
    const rows = this.store.all(
      `SELECT s.value AS id, m.intent, m.check_failed
       FROM json_each(?) s LEFT JOIN memory_sessions m ON m.session_id = s.value`,
      [JSON.stringify(unread)],
    );
    for (const row of rows) {
      const state: SessionState = {};
      if (isObservationType(row.intent)) state.intent = row.intent;
      if (row.check_failed !== null) state.checkFailed = row.check_failed === 1;
      this.sessions.set(String(row.id), state);
    }
  }

  /** Per-session state, read from the database the first time a chunk meets the session. */
  private session(sessionId: string | null): SessionState {
    const key = sessionId ?? '';
    let state = this.sessions.get(key);
    if (!state) {
      this.loadSessions([key]);
      state = this.sessions.get(key) ?? {};
      this.sessions.set(key, state);
    }
    return state;
  }

  private setForgotten(ids: readonly string[], forgottenAt: number | null): void {
    // Observations made earlier in this chunk must be in the table to be found.
    this.flush();
    this.store.run(
      `UPDATE observations SET forgotten_at = ? WHERE id IN (${ids.map(() => '?').join(', ')})`,
      [forgottenAt, ...ids],
    );
  }

  flush(): void {
    for (const key of this.changedSessions) {
      const { intent, checkFailed } = this.sessions.get(key) ?? {};
      this.sessionRows.add([key, intent ?? null, checkFailed === undefined ? null : Number(checkFailed)]);
    }
    this.changedSessions.clear();
    this.sessionRows.flush();
    if (!this.started) return;
    this.writeLatest();
    this.rows.flush();
    if (this.unindexed.length === 0) return;
    // A row whose id was already kept (told again) was not inserted, and is indexed already.
    const inserted = new Set(
      this.store
        .all('SELECT seq FROM observations WHERE seq >= ?', [this.unindexed[0].seq])
        .map((row) => Number(row.seq)),
    );
    addToSearchIndex(
      this.store,
      this.unindexed.filter((text) => inserted.has(text.seq)),
    );
    this.unindexed = [];
  }
}
