import type { Database } from 'sql.js';
import { runAtOnce, runInSteps, type Steps } from '../kernel/steps';

/**
 * Numbered migrations; `PRAGMA user_version` holds how many have run. Append only: a released migration
 * never changes, because snapshots on users' disks were built by it.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE log_files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    identity TEXT NOT NULL DEFAULT '',
    head_len INTEGER NOT NULL DEFAULT 0,
    head_hash TEXT NOT NULL DEFAULT '',
    tail_hash TEXT NOT NULL DEFAULT '',
    offset INTEGER NOT NULL DEFAULT 0,
    generation INTEGER NOT NULL DEFAULT 0,
    lines INTEGER NOT NULL DEFAULT 0,
    foreign_lines INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    received_at INTEGER NOT NULL,
    session_id TEXT,
    kind TEXT NOT NULL
  );
  CREATE TABLE rejects (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    reason TEXT NOT NULL,
    sample TEXT NOT NULL,
    rejected_at INTEGER NOT NULL
  );
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    started_at INTEGER NOT NULL,
    last_event_at INTEGER NOT NULL,
    ended_at INTEGER,
    end_reason TEXT,
    model TEXT,
    source TEXT,
    transcript_path TEXT,
    cwd TEXT
  );
  CREATE TABLE tool_calls (
    id INTEGER PRIMARY KEY,
    event_id INTEGER,
    tool_use_id TEXT,
    session_id TEXT,
    tool_name TEXT NOT NULL,
    success INTEGER NOT NULL,
    duration_ms INTEGER,
    error TEXT,
    at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX tool_calls_by_use_id ON tool_calls(tool_use_id) WHERE tool_use_id IS NOT NULL;
  CREATE INDEX tool_calls_by_tool ON tool_calls(tool_name, at);
  CREATE TABLE prompts (
    id INTEGER PRIMARY KEY,
    event_id INTEGER,
    session_id TEXT,
    text TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  );
  `,
  // Claude Code transcript import: per-file read progress, tool uses still waiting for their result, and
  // a key per transcript prompt so that re-imports and hook-recorded prompts are not counted twice.
  `
  CREATE TABLE transcript_files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ms REAL NOT NULL DEFAULT 0,
    offset INTEGER NOT NULL DEFAULT 0,
    head_hash TEXT NOT NULL DEFAULT '',
    tail_hash TEXT NOT NULL DEFAULT '',
    cwd TEXT
  );
  CREATE TABLE transcript_pending_tools (
    tool_use_id TEXT PRIMARY KEY,
    session_id TEXT,
    tool_name TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  ALTER TABLE prompts ADD COLUMN source_key TEXT;
  CREATE UNIQUE INDEX prompts_by_source_key ON prompts(source_key) WHERE source_key IS NOT NULL;
  CREATE INDEX prompts_by_session ON prompts(session_id, at);
  `,
  // Tool registry: every tool declared in config or seen in use, one row per (name, scope), never deleted.
  // Call statistics are kept per row by the incremental discovery pass (the last 50 calls' outcomes), so
  // ranking needs no per-tool queries; tool_calls(at) serves "the most recent 200" and "the last 7 days".
  `
  CREATE TABLE tool_registry (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    scope TEXT NOT NULL,
    type TEXT NOT NULL,
    origin TEXT NOT NULL,
    source TEXT,
    line INTEGER,
    server TEXT,
    description TEXT,
    disabled INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active',
    status_reason TEXT,
    discovered_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_used_at INTEGER,
    usage_count INTEGER NOT NULL DEFAULT 0,
    failure_count INTEGER NOT NULL DEFAULT 0,
    window_calls INTEGER NOT NULL DEFAULT 0,
    window_failures INTEGER NOT NULL DEFAULT 0,
    last5_failures INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    UNIQUE (name, scope)
  );
  CREATE INDEX tool_calls_by_at ON tool_calls(at);
  `,
  // Memory: one-line observations derived from events or saved explicitly (forgetting only sets
  // forgotten_at), and their full-text index. The index keeps no copy of the text (external content);
  // `tokens` is each text's length in words, so ranking needs no per-row lookup of the index's own sizes.
  // No full index by session: it would double the cost of each insert during ingestion, and session
  // filters are applied to full-text matches or a time range anyway. Test and build runs are indexed by
  // session, for the summariser to tell a fix (a passing run after a failing one) from a plain success.
  `
  CREATE TABLE observations (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    event_id INTEGER,
    session_id TEXT,
    agent_type TEXT,
    type TEXT NOT NULL,
    source TEXT NOT NULL,
    text TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    at INTEGER NOT NULL,
    forgotten_at INTEGER
  );
  CREATE INDEX observations_by_at ON observations(at);
  CREATE INDEX observation_checks_by_session ON observations(session_id, seq) WHERE source = 'check';
  CREATE VIRTUAL TABLE observations_fts USING fts4(content="observations", text, tokenize=unicode61);
  `,
  // Prefix indexes for the search-as-you-type queries ("pars*"): FTS4 answers a prefix of 3 to 6
  // characters from one doclist instead of merging those of every word that starts with it.
  `
  DROP TABLE observations_fts;
  CREATE VIRTUAL TABLE observations_fts USING fts4(
    content="observations", text, tokenize=unicode61, prefix="3,4,5"
  );
  INSERT INTO observations_fts (docid, text) SELECT seq, text FROM observations;
  `,
  // The summariser's state per session (the intent of the latest prompt that said what to do; whether the
  // latest test or build run failed), stored as each chunk leaves it. Derived again from the rows it would
  // depend on where chunks split ("continue" sets no intent; a long prompt is typed by its opening), and
  // live ingestion splits anywhere. It replaces the index of check runs, which served only that derivation.
  `
  CREATE TABLE memory_sessions (
    session_id TEXT PRIMARY KEY,
    intent TEXT,
    check_failed INTEGER
  ) WITHOUT ROWID;
  DROP INDEX observation_checks_by_session;
  `,
  // Imported transcripts feed the memory as hook events do: a tool use whose result is read by a later
  // import is summarised with its input, so the input waits with it.
  `
  ALTER TABLE transcript_pending_tools ADD COLUMN input TEXT;
  `,
  // More agents than Claude Code: each event and session says which agent it came from. Everything
  // recorded before was read as Claude Code's.
  `
  ALTER TABLE events ADD COLUMN agent TEXT;
  ALTER TABLE sessions ADD COLUMN agent TEXT;
  UPDATE events SET agent = 'claude-code' WHERE kind NOT LIKE 'ContextDeck.%';
  UPDATE sessions SET agent = 'claude-code';
  `,
  // Which agents called each tool (comma-separated ids), kept by discovery as calls arrive.
  `
  ALTER TABLE tool_registry ADD COLUMN agents TEXT;
  UPDATE tool_registry SET agents = 'claude-code' WHERE usage_count > 0;
  `,
  // What the dashboard reads of events, as counters kept by ingest (log/eventCounters.ts, same names), and
  // failed tool calls found by an index: each had been a scan of the whole table at every update.
  `
  INSERT INTO counters (name, value)
    SELECT 'events.agent:' || agent, count(*) FROM events WHERE agent IS NOT NULL GROUP BY agent;
  INSERT INTO counters (name, value)
    SELECT 'events.last_received_at', max(received_at) FROM events HAVING count(*) > 0;
  CREATE INDEX tool_calls_failed ON tool_calls(success) WHERE success = 0;
  `,
  // The events table was read only for its row count and the next id (tool calls, prompts and observations
  // name the event they came from): two counters replace its row per event, a fifth of the database.
  `
  INSERT OR REPLACE INTO counters (name, value) SELECT 'events.count', count(*) FROM events;
  INSERT OR REPLACE INTO counters (name, value) SELECT 'events.last_id', coalesce(max(id), 0) FROM events;
  DROP TABLE events;
  `,
  // The memory's full-text index merges its segments a little at each commit instead of all at once when
  // 16 pile up at a level: such a merge held the extension host for 100 ms and more during a catch-up.
  `
  INSERT INTO observations_fts (observations_fts) VALUES ('automerge=8');
  `,
  // History older than the detail window (history/compaction.ts): tool calls as counts per tool and day, and
  // the sessions whose older detail is folded, so that reading their session files again adds nothing twice.
  `
  CREATE TABLE tool_days (
    day INTEGER NOT NULL,
    tool_name TEXT NOT NULL,
    calls INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    PRIMARY KEY (day, tool_name)
  ) WITHOUT ROWID;
  CREATE TABLE compacted_sessions (
    session_id TEXT PRIMARY KEY,
    before INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // What is looked up at every update, by index instead of a scan: the latest sessions (the live gauge, the
  // model), the latest ended one (the next session's summary), the memory's live observations by type (its
  // counts), and the observations a fold may take (past the digests of every folded session). At a year of
  // history each scan held the extension host 12-45 ms.
  `
  CREATE INDEX sessions_by_last_event ON sessions(last_event_at);
  CREATE INDEX sessions_by_end ON sessions(ended_at) WHERE ended_at IS NOT NULL;
  CREATE INDEX observations_live_by_type ON observations(type) WHERE forgotten_at IS NULL;
  CREATE INDEX observations_foldable ON observations(at) WHERE source NOT IN ('saved', 'digest');
  `,
  // A log file edited after it was read is found again by its last line read (its length, up to the tail's
  // 4 KiB), so that nothing read is read twice; a file unchanged since it was read to its end (size and
  // modification time as seen then) is passed over without being opened.
  `
  ALTER TABLE log_files ADD COLUMN last_line_len INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE log_files ADD COLUMN seen_size INTEGER NOT NULL DEFAULT -1;
  ALTER TABLE log_files ADD COLUMN seen_mtime REAL NOT NULL DEFAULT -1;
  `,
  // VS Code's own MCP servers (.vscode/mcp.json) are named as VS Code names their tools, mcp_<server>_*;
  // the rows an earlier scan kept under Claude Code's names, mcp__<server>__*, stood for no tool VS Code
  // calls, and went stale beside the new ones. Nothing counted calls for them.
  `
  DELETE FROM tool_registry
  WHERE origin = 'config' AND type = 'mcp_server' AND substr(name, 1, 5) = 'mcp__'
    AND replace(source, '\\', '/') LIKE '%/.vscode/mcp.json';
  `,
  // A memory that tells the truth: the file a change names and, for a whole-file write, the SHA-256 of
  // what it wrote (checked before it is recalled), a failure's
  // check until it passes again (open_key; resolved_at when it did), and a folded session's story (asks,
  // report, pending work, files, open problems) kept whole in its digest. A compaction is an event of the
  // session, never a decision. Notes saved before are re-labelled from the event log once, where some came
  // through MCP (log/agentNoteLabels.ts).
  `
  ALTER TABLE observations ADD COLUMN file TEXT;
  ALTER TABLE observations ADD COLUMN file_hash TEXT;
  ALTER TABLE observations ADD COLUMN open_key TEXT;
  ALTER TABLE observations ADD COLUMN resolved_at INTEGER;
  ALTER TABLE observations ADD COLUMN story TEXT;
  CREATE INDEX observations_open ON observations(open_key) WHERE open_key IS NOT NULL;
  UPDATE observations SET type = 'discovery' WHERE source = 'compaction' AND type = 'decision';
  INSERT OR REPLACE INTO counters (name, value)
    SELECT 'memory.relabel_agent_notes', 1 WHERE EXISTS (SELECT 1 FROM observations WHERE source = 'saved');
  `,
  // The agent whose config declares a tool, as its adapter's scan says (null: a file no recorded agent
  // reads, Cursor's); filled by the next scan, which sees every row as changed until then.
  `
  ALTER TABLE tool_registry ADD COLUMN declared_by TEXT;
  `,
  // The memory's own search index (memory/searchIndex/): FTS4 could rank only the newest 1,000 matches of a
  // common word in time. Observations already kept are indexed after the move, a slice at a time, newest
  // first (catchUpSearchIndex); until then a search indexes them first.
  `
  CREATE TABLE search_postings (
    term TEXT NOT NULL,
    block INTEGER NOT NULL,
    entries BLOB NOT NULL,
    UNIQUE (term, block)
  );
  DROP TABLE observations_fts;
  INSERT OR REPLACE INTO counters (name, value)
    SELECT 'search.unindexed_below', max(seq) + 1 FROM observations HAVING count(*) > 0;
  `,
];

class SchemaTooNewError extends Error {
  constructor(found: number) {
    super(
      `database schema version ${found} is newer than this version of Context Deck knows (${MIGRATIONS.length})`,
    );
  }
}

export function schemaVersion(db: Database): number {
  return Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
}

/** Bring a database up to the current schema, one migration per transaction. */
export function migrate(db: Database): void {
  runAtOnce(migrationSteps(db));
}

/**
 * `migrate`, with `pause()` awaited after each statement: a new database's schema is some 60 statements, and
 * run at once they held the extension host 100-350 ms (sql.js compiles its code as the first ones run).
 * Nothing else may use the database meanwhile.
 */
export function migrateInSteps(db: Database, pause: () => Promise<void>): Promise<void> {
  return runInSteps(migrationSteps(db), pause);
}

/** Runs the migrations a statement at a time, yielding after each. */
function* migrationSteps(db: Database): Steps<void> {
  const current = schemaVersion(db);
  if (current > MIGRATIONS.length) throw new SchemaTooNewError(current);
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.exec('BEGIN');
    try {
      for (const statement of db.iterateStatements(MIGRATIONS[version])) {
        try {
          while (statement.step());
        } finally {
          statement.free();
        }
        yield;
      }
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
