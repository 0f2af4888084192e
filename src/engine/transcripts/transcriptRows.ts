import { createHash } from 'node:crypto';
import type { SqlValue } from 'sql.js';
import { BatchInsert } from '../batchInsert';
import { redactText } from '../redact';
import type { Store } from '../store';
import { promptText } from './promptText';
import type { TranscriptEntry } from './transcriptLine';

/** What a transcript file says about itself, beyond its lines. */
export interface TranscriptFileContext {
  /** The session its path names, for lines that carry no sessionId. */
  sessionId: string;
  /** Recorded on the session; undefined for a subagent's file. */
  transcriptPath?: string;
  /** A subagent's file: its tool calls count, its prompts and model are the subagent's, not the user's. */
  subagent: boolean;
  /** When lines carry no timestamp: the last timestamp seen, else the file's modification time. */
  lastAt: number;
}

export interface RowCounts {
  toolCalls: number;
  failures: number;
  prompts: number;
  sessions: number;
}

interface PendingTool {
  sessionId: string;
  name: string;
  at: number;
  /** Already in transcript_pending_tools (from an earlier chunk or import). */
  stored: boolean;
}

interface SessionFacts {
  first: number;
  last: number;
  model?: string;
  transcriptPath?: string;
  cwd?: string;
}

interface PromptRow {
  key: string;
  sessionId: string;
  text: string;
  at: number;
}

/** The longest prompt or error text kept in a row, as for hook events (eventRows.ts). */
const MAX_TEXT = 8_000;

/** Stored as hook rows store it: redacted, then clipped, so that one prompt from both sources compares equal. */
function storedText(text: string): string {
  const redacted = redactText(text).text;
  return redacted.length > MAX_TEXT ? `${redacted.slice(0, MAX_TEXT)}…` : redacted;
}

/** Messages Claude Code writes itself (API errors, "no response requested") carry this model and no usage. */
const SYNTHETIC_MODEL = '<synthetic>';

const TOOL_CALL_COLUMNS = ['tool_use_id', 'session_id', 'tool_name', 'success', 'duration_ms', 'error', 'at'];

/**
 * Turns transcript entries into sessions, tool calls and prompts, buffering them for one chunk and writing
 * them in `flush()` inside the chunk's transaction. Nothing is counted twice: tool calls are unique on
 * tool_use_id; a prompt has a key from its line's uuid and claims the matching hook-recorded prompt instead
 * of adding a second row.
 */
export class TranscriptRowWriter {
  private readonly pending = new Map<string, PendingTool>();
  private readonly sessions = new Map<string, SessionFacts>();
  private calls: SqlValue[][] = [];
  private failedCalls: SqlValue[][] = [];
  private prompts: PromptRow[] = [];
  private resolvedStored: string[] = [];
  private readonly successInsert: BatchInsert;
  private readonly failureInsert: BatchInsert;

  constructor(private readonly store: Store) {
    this.successInsert = new BatchInsert(store, 'tool_calls', TOOL_CALL_COLUMNS, 'INSERT OR IGNORE');
    this.failureInsert = new BatchInsert(store, 'tool_calls', TOOL_CALL_COLUMNS, 'INSERT OR IGNORE');
  }

  add(entry: TranscriptEntry, file: TranscriptFileContext): void {
    if (entry.at !== undefined) file.lastAt = entry.at;
    const at = entry.at ?? file.lastAt;
    const sessionId = entry.sessionId ?? file.sessionId;
    this.noteSession(sessionId, entry, file, at);

    for (const use of entry.toolUses) {
      if (!this.pending.has(use.id))
        this.pending.set(use.id, { sessionId, name: use.name, at, stored: false });
    }
    for (const result of entry.toolResults) {
      const use = this.pending.get(result.toolUseId) ?? this.storedPending(result.toolUseId);
      if (!use) continue;
      this.pending.delete(result.toolUseId);
      if (use.stored) this.resolvedStored.push(result.toolUseId);
      const row = [
        result.toolUseId,
        use.sessionId,
        use.name,
        result.isError ? 0 : 1,
        at >= use.at ? at - use.at : null,
        result.errorText === undefined ? null : storedText(result.errorText),
        at,
      ];
      (result.isError ? this.failedCalls : this.calls).push(row);
    }

    const prompt = file.subagent ? undefined : promptText(entry);
    if (prompt !== undefined) {
      const key = entry.uuid
        ? `transcript:${entry.uuid}`
        : `transcript:${sessionId}:${at}:${createHash('sha1').update(prompt).digest('hex').slice(0, 16)}`;
      this.prompts.push({ key, sessionId, text: storedText(prompt), at });
    }
  }

  private noteSession(id: string, entry: TranscriptEntry, file: TranscriptFileContext, at: number): void {
    let facts = this.sessions.get(id);
    if (!facts) {
      facts = { first: at, last: at, transcriptPath: file.transcriptPath };
      this.sessions.set(id, facts);
    }
    facts.first = Math.min(facts.first, at);
    facts.last = Math.max(facts.last, at);
    facts.cwd ??= entry.cwd;
    if (!file.subagent && !entry.sidechain && entry.model && entry.model !== SYNTHETIC_MODEL)
      facts.model = entry.model;
  }

  private storedPending(toolUseId: string): PendingTool | undefined {
    const row = this.store.get(
      'SELECT session_id, tool_name, at FROM transcript_pending_tools WHERE tool_use_id = ?',
      [toolUseId],
    );
    return row
      ? { sessionId: String(row.session_id), name: String(row.tool_name), at: Number(row.at), stored: true }
      : undefined;
  }

  /** Write the chunk's rows; call inside the transaction that also records how far the file was read. */
  flush(): RowCounts {
    const counts: RowCounts = { toolCalls: 0, failures: 0, prompts: 0, sessions: 0 };
    const changes = () => this.store.number('SELECT total_changes()');

    const before = changes();
    for (const row of this.calls) this.successInsert.add(row);
    this.successInsert.flush();
    const afterSuccesses = changes();
    for (const row of this.failedCalls) this.failureInsert.add(row);
    this.failureInsert.flush();
    counts.failures = changes() - afterSuccesses;
    counts.toolCalls = changes() - before;

    for (const id of this.resolvedStored)
      this.store.run('DELETE FROM transcript_pending_tools WHERE tool_use_id = ?', [id]);
    // Uses still waiting are kept, so a result appended after this import is matched by the next one.
    for (const [id, use] of this.pending) {
      if (use.stored) continue;
      this.store.run(
        'INSERT OR REPLACE INTO transcript_pending_tools (tool_use_id, session_id, tool_name, at) VALUES (?, ?, ?, ?)',
        [id, use.sessionId, use.name, use.at],
      );
      use.stored = true;
    }

    for (const prompt of this.prompts) if (this.writePrompt(prompt)) counts.prompts++;

    for (const [id, facts] of this.sessions) {
      if (!this.store.get('SELECT 1 AS found FROM sessions WHERE id = ?', [id])) counts.sessions++;
      this.store.run(
        `INSERT INTO sessions (id, started_at, last_event_at, model, transcript_path, cwd)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET
           started_at = min(started_at, excluded.started_at),
           last_event_at = max(last_event_at, excluded.last_event_at),
           model = coalesce(excluded.model, model),
           transcript_path = coalesce(transcript_path, excluded.transcript_path),
           cwd = coalesce(cwd, excluded.cwd)`,
        [id, facts.first, facts.last, facts.model ?? null, facts.transcriptPath ?? null, facts.cwd ?? null],
      );
    }

    this.calls = [];
    this.failedCalls = [];
    this.prompts = [];
    this.resolvedStored = [];
    this.sessions.clear();
    return counts;
  }

  /**
   * A prompt already imported (same key) is skipped. One the hook recorded (same session and text, not yet
   * matched to a transcript line) is claimed by setting its key - the closest in time when the text was
   * sent more than once - instead of adding a row. Returns whether a row was added.
   */
  private writePrompt(prompt: PromptRow): boolean {
    if (this.store.get('SELECT 1 AS found FROM prompts WHERE source_key = ?', [prompt.key])) return false;
    const hookRow = this.store.get(
      `SELECT id FROM prompts WHERE session_id = ? AND text = ? AND source_key IS NULL
       ORDER BY abs(at - ?) LIMIT 1`,
      [prompt.sessionId, prompt.text, prompt.at],
    );
    if (hookRow) {
      this.store.run('UPDATE prompts SET source_key = ? WHERE id = ?', [prompt.key, hookRow.id]);
      return false;
    }
    this.store.run(
      'INSERT INTO prompts (event_id, session_id, text, at, source_key) VALUES (NULL, ?, ?, ?, ?)',
      [prompt.sessionId, prompt.text, prompt.at, prompt.key],
    );
    return true;
  }
}
