/**
 * A year of history in bounded memory: detail older than the window (`detailDays`) is folded into what the
 * views read of it, and the detail rows go. The event log keeps everything, so a rebuild with a longer
 * window brings the detail back.
 * - Tool calls become calls and failures per tool per day (`tool_days`), once the registry has read them.
 * - Prompts go (their words are in the memory already); how many is kept as a counter.
 * - Observations derived from activity become one digest per session, searchable by the same words; saved
 *   notes stay as they are, forgotten ones go.
 * Done in slices (`maxRows` rows of each kind, one transaction: 150 take 10 to 40 ms) so the extension host
 * can run between them.
 */
import { derivedId } from '../memory/ids';
import { LAST_CALL_COUNTER } from '../registry/discovery';
import { type ObservationSource, OBSERVATION_TYPES } from '../memory/types';
import { emptyStory, parseStory, storyText, tellStory } from '../memory/sessionStory';
import { clip, shortDate, words } from '../memory/text';
import { addToSearchIndex, indexedText, removeFromSearchIndex } from '../memory/searchIndex/indexWrites';
import { addToCounter, counterValue } from '../storage/counters';
import type { Store } from '../storage/store';

const DAY_MS = 86_400_000;
/**
 * Longest digest text of a session: its asks, report, pending work and files, searchable by their words.
 * The whole story is kept beside it (`story`) for the next session's context.
 */
const DIGEST_MAX_CHARS = 2000;
export const COMPACTED_PROMPTS = 'prompts.compacted';

export interface CompactionSlice {
  /** Rows folded or removed by this slice. */
  rows: number;
  /** Rows older than the cutoff are left (`maxRows` stopped the slice). */
  more: boolean;
}

/** The start of the UTC day `detailDays` before `now`: detail from then on is kept. */
export function detailCutoff(now: number, detailDays: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - detailDays * DAY_MS;
}

/** Fold one slice of the detail older than `before`. */
export function compactHistory(store: Store, before: number, maxRows = 150): CompactionSlice {
  return store.transaction(() => {
    const toolCalls = compactToolCalls(store, before, maxRows);
    const prompts = compactPrompts(store, before, maxRows);
    const observations = compactObservations(store, before, maxRows);
    return {
      rows: toolCalls.rows + prompts.rows + observations.rows,
      more: toolCalls.more || prompts.more || observations.more,
    };
  });
}

/** Calls the registry has read (its cursor), oldest first, into per-day counts. */
function compactToolCalls(store: Store, before: number, maxRows: number): CompactionSlice {
  const discovered = counterValue(store, LAST_CALL_COUNTER);
  const { list, ...slice } = firstIds(
    store,
    'SELECT id FROM tool_calls INDEXED BY tool_calls_by_at WHERE at < ? AND id <= ? ORDER BY at LIMIT ?',
    [before, discovered],
    maxRows,
  );
  if (slice.rows === 0) return slice;
  store.run(
    `INSERT INTO tool_days (day, tool_name, calls, failures)
       SELECT at / ${DAY_MS}, tool_name, count(*), sum(success = 0) FROM tool_calls
       WHERE id IN (SELECT value FROM json_each(?)) GROUP BY 1, 2
     ON CONFLICT (day, tool_name) DO UPDATE SET
       calls = calls + excluded.calls, failures = failures + excluded.failures`,
    [list],
  );
  store.run('DELETE FROM tool_calls WHERE id IN (SELECT value FROM json_each(?))', [list]);
  noteCompactedSessions(store, 'tool_calls', list, before);
  return slice;
}

function compactPrompts(store: Store, before: number, maxRows: number): CompactionSlice {
  const { list, ...slice } = firstIds(
    store,
    'SELECT id FROM prompts WHERE at < ? ORDER BY id LIMIT ?',
    [before],
    maxRows,
  );
  if (slice.rows === 0) return slice;
  noteCompactedSessions(store, 'prompts', list, before);
  store.run('DELETE FROM prompts WHERE id IN (SELECT value FROM json_each(?))', [list]);
  addToCounter(store, COMPACTED_PROMPTS, slice.rows);
  return slice;
}

/**
 * The first `maxRows` ids `sql` lists (its last parameter is the limit: one more is asked for, to tell whether
 * any are left), as a JSON list for `json_each`.
 */
function firstIds(
  store: Store,
  sql: string,
  params: number[],
  maxRows: number,
): CompactionSlice & { list: string } {
  const ids = store.all(sql, [...params, maxRows + 1]).map((row) => Number(row.id));
  const slice = ids.slice(0, maxRows);
  return { rows: slice.length, more: ids.length > maxRows, list: JSON.stringify(slice) };
}

/**
 * Sessions whose detail before `before` is folded: an agent's session file read again later (a resumed
 * session is appended to, and a changed file is read whole) must not add those calls and prompts again.
 */
function noteCompactedSessions(
  store: Store,
  table: 'tool_calls' | 'prompts',
  ids: string,
  before: number,
): void {
  store.run(
    `INSERT INTO compacted_sessions (session_id, before)
       SELECT DISTINCT session_id, ? FROM ${table}
       WHERE id IN (SELECT value FROM json_each(?)) AND session_id IS NOT NULL
     ON CONFLICT (session_id) DO UPDATE SET before = max(before, excluded.before)`,
    [before, ids],
  );
}

/**
 * Whether a session's detail at a time was folded already: an import must not add it again. Looked up once
 * per session for the caller's batch.
 */
export function foldedDetail(store: Store): (sessionId: string | null, at: number) => boolean {
  if (!store.get('SELECT 1 AS found FROM compacted_sessions LIMIT 1')) return () => false;
  const before = new Map<string, number>();
  return (sessionId, at) => {
    if (sessionId === null) return false;
    let cutoff = before.get(sessionId);
    if (cutoff === undefined) {
      cutoff = store.number('SELECT before FROM compacted_sessions WHERE session_id = ?', [sessionId]);
      before.set(sessionId, cutoff);
    }
    return at < cutoff;
  };
}

interface ObservationRow {
  seq: number;
  session_id: string | null;
  type: string;
  source: string;
  text: string;
  at: number;
  forgotten_at: number | null;
  file: string | null;
  file_hash: string | null;
  open_key: string | null;
  story: string | null;
  [column: string]: string | number | null;
}

const ROW_COLUMNS = 'seq, session_id, type, source, text, at, forgotten_at, file, file_hash, open_key, story';

/** Derived observations, oldest first, into their session's digest. */
function compactObservations(store: Store, before: number, maxRows: number): CompactionSlice {
  const rows = store.all<ObservationRow>(
    `SELECT ${ROW_COLUMNS} FROM observations INDEXED BY observations_foldable
     WHERE at < ? AND source NOT IN ('saved', 'digest') ORDER BY at LIMIT ?`,
    [before, maxRows + 1],
  );
  const slice = rows.slice(0, maxRows);
  if (slice.length === 0) return { rows: 0, more: false };
  const groups = new Map<string, ObservationRow[]>();
  for (const row of slice) {
    // Observations outside any session are digested per day.
    const key = row.session_id ?? `day:${Math.floor(row.at / DAY_MS)}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  for (const [key, group] of groups) foldIntoDigest(store, key, group);
  // The summariser's state of a session this old is of no more use (a session resumed starts afresh).
  store.run('DELETE FROM memory_sessions WHERE session_id IN (SELECT value FROM json_each(?))', [
    JSON.stringify([...groups.keys()]),
  ]);
  removeFromSearchIndex(
    store,
    slice.map((row) => indexedText(row.seq, row.text)),
  );
  store.run('DELETE FROM observations WHERE seq IN (SELECT value FROM json_each(?))', [
    JSON.stringify(slice.map((row) => row.seq)),
  ]);
  return { rows: slice.length, more: rows.length > maxRows };
}

const typeRank = (type: string) => {
  const rank = (OBSERVATION_TYPES as readonly string[]).indexOf(type);
  return rank < 0 ? OBSERVATION_TYPES.length : rank;
};

/** Add `rows` (of one session, or one day outside sessions) to its digest, creating it on first need. */
function foldIntoDigest(store: Store, key: string, rows: ObservationRow[]): void {
  const kept = rows.filter((row) => row.forgotten_at === null);
  if (kept.length === 0) return;
  const id = derivedId(`digest\u0000${key}`);
  const existing = store.get<ObservationRow>(`SELECT ${ROW_COLUMNS} FROM observations WHERE id = ?`, [id]);
  const first = Math.min(...kept.map((row) => row.at), existing?.at ?? Infinity);
  // The session's story goes on from what earlier folds kept of it (a digest of an older version: nothing).
  const story = tellStory(
    parseStory(existing?.story) ?? emptyStory(),
    kept.map((row) => ({
      source: row.source as ObservationSource,
      type: row.type,
      text: row.text,
      at: row.at,
      file: row.file,
      fileHash: row.file_hash,
      openKey: row.open_key,
    })),
  );
  const type = [...kept.map((row) => row.type), existing?.type ?? 'question'].sort(
    (a, b) => typeRank(a) - typeRank(b),
  )[0];
  const label = kept[0].session_id === null ? 'Day' : 'Session';
  const told = storyText(`${label} of ${shortDate(first)}`, story, DIGEST_MAX_CHARS);
  // A digest an earlier version wrote has no story: its text is kept ahead of what is folded into it now.
  const text =
    existing && existing.story === null ? clip(`${existing.text} · ${told}`, DIGEST_MAX_CHARS) : told;
  const textWords = words(text);
  const tokens = textWords.length;
  const storyJson = JSON.stringify(story);
  if (existing) {
    removeFromSearchIndex(store, [indexedText(existing.seq, existing.text)]);
    store.run('UPDATE observations SET type = ?, text = ?, tokens = ?, at = ?, story = ? WHERE seq = ?', [
      type,
      text,
      tokens,
      first,
      storyJson,
      existing.seq,
    ]);
    addToSearchIndex(store, [{ seq: existing.seq, words: textWords }]);
    return;
  }
  store.run(
    `INSERT INTO observations (id, event_id, session_id, agent_type, type, source, text, tokens, at, story)
     VALUES (?, NULL, ?, NULL, ?, 'digest', ?, ?, ?, ?)`,
    [id, kept[0].session_id, type, text, tokens, first, storyJson],
  );
  addToSearchIndex(store, [
    { seq: store.number('SELECT seq FROM observations WHERE id = ?', [id]), words: textWords },
  ]);
}
