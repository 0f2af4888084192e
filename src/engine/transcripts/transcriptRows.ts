import { createHash } from 'node:crypto';
import type { SqlValue } from 'sql.js';
import { BatchInsert } from '../storage/batchInsert';
import type { MemoryItem } from '../memory/eventMemory';
import { ObservationWriter } from '../memory/observationWriter';
import { foldedDetail } from '../history/compaction';
import { redactText } from '../redact';
import type { Store } from '../storage/store';
import { promptText } from '../agents/claudeCode/promptText';
import { observedNear } from '../log/sharedActivity';
import { type EventBase, compactionMemory, promptMemory, toolCallMemory } from './transcriptEvents';
import type { Json, TranscriptEntry } from '../agents/claudeCode/transcriptLine';

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
  /** The working directory the latest line recorded, as hook payloads carry it. */
  cwd?: string;
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
  input: Json;
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
  /** Set by flush: a row was added (not a re-import, not a prompt the hooks recorded). */
  added?: boolean;
}

/**
 * What a line means for the memory, kept only when the import is first to record it: a tool call whose
 * row it added, a prompt it added, a compaction no hook event reported.
 */
interface MemoryCandidate {
  item: MemoryItem;
  sessionId: string;
  at: number;
  toolUseId?: string;
  prompt?: PromptRow;
}

/** The longest prompt or error text kept in a row, as for hook events (eventRows.ts). */
const MAX_TEXT = 8_000;

/** Stored as hook rows store it: redacted, then clipped, so that one prompt from both sources compares equal. */
export function storedText(text: string): string {
  const redacted = redactText(text).text;
  return redacted.length > MAX_TEXT ? `${redacted.slice(0, MAX_TEXT)}…` : redacted;
}

/**
 * A session as an import read it: its span widened, what it did not know filled in. Returns whether the
 * session is new to the database.
 */
export function upsertImportedSession(
  store: Store,
  id: string,
  facts: {
    first: number;
    last: number;
    model?: string;
    transcriptPath?: string;
    cwd?: string;
    agent: string;
  },
): boolean {
  const added = !store.get('SELECT 1 AS found FROM sessions WHERE id = ?', [id]);
  store.run(
    `INSERT INTO sessions (id, started_at, last_event_at, model, transcript_path, cwd, agent)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET
       started_at = min(started_at, excluded.started_at),
       last_event_at = max(last_event_at, excluded.last_event_at),
       model = coalesce(excluded.model, model),
       transcript_path = coalesce(transcript_path, excluded.transcript_path),
       cwd = coalesce(cwd, excluded.cwd),
       agent = coalesce(agent, excluded.agent)`,
    [
      id,
      facts.first,
      facts.last,
      facts.model ?? null,
      facts.transcriptPath ?? null,
      facts.cwd ?? null,
      facts.agent,
    ],
  );
  return added;
}

/** Messages Claude Code writes itself (API errors, "no response requested") carry this model and no usage. */
const SYNTHETIC_MODEL = '<synthetic>';

const TOOL_CALL_COLUMNS = ['tool_use_id', 'session_id', 'tool_name', 'success', 'duration_ms', 'error', 'at'];

/**
 * Turns transcript entries into sessions, tool calls, prompts and observations, buffering them for one
 * chunk and writing them in `flush()` inside the chunk's transaction. Nothing is counted twice: tool calls
 * are unique on tool_use_id; a prompt has a key from its line's uuid and claims the matching hook-recorded
 * prompt instead of adding a second row; observations come only with the rows this import added.
 */
export class TranscriptRowWriter {
  private readonly pending = new Map<string, PendingTool>();
  private readonly sessions = new Map<string, SessionFacts>();
  private calls: SqlValue[][] = [];
  private failedCalls: SqlValue[][] = [];
  private prompts: PromptRow[] = [];
  private memory: MemoryCandidate[] = [];
  /** Tool uses resolved in this chunk. */
  private readonly resolved = new Set<string>();
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
    file.cwd = entry.cwd ?? file.cwd;
    // A `summary` line titles a conversation (often an earlier one): no activity of any session.
    if (entry.type === 'summary') return;
    this.noteSession(sessionId, entry, file, at);

    for (const use of entry.toolUses) {
      if (!this.pending.has(use.id))
        this.pending.set(use.id, { sessionId, name: use.name, input: use.input, at, stored: false });
    }
    for (const result of entry.toolResults) {
      const use = this.pending.get(result.toolUseId) ?? this.storedPending(result.toolUseId);
      if (!use) continue;
      this.pending.delete(result.toolUseId);
      if (use.stored) this.resolvedStored.push(result.toolUseId);
      // A call repeated on a rewound branch is one call, remembered once.
      if (this.resolved.has(result.toolUseId)) continue;
      this.resolved.add(result.toolUseId);
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
      const base: EventBase = { session_id: use.sessionId, cwd: file.cwd };
      for (const item of toolCallMemory(use.name, use.input, result, base))
        this.remember(item, { sessionId: use.sessionId, at, toolUseId: result.toolUseId });
    }

    const base: EventBase = { session_id: sessionId, cwd: file.cwd };
    const prompt = file.subagent ? undefined : promptText(entry);
    if (prompt !== undefined) {
      const key = entry.uuid
        ? `transcript:${entry.uuid}`
        : `transcript:${sessionId}:${at}:${createHash('sha1').update(prompt).digest('hex').slice(0, 16)}`;
      const row: PromptRow = { key, sessionId, text: storedText(prompt), at };
      this.prompts.push(row);
      this.remember(promptMemory(prompt, base), { sessionId, at, prompt: row });
    }
    if (entry.subtype === 'compact_boundary' && !file.subagent && !entry.sidechain)
      this.remember(compactionMemory(entry.compactTrigger, base), { sessionId, at });
  }

  private remember(item: MemoryItem | undefined, candidate: Omit<MemoryCandidate, 'item'>): void {
    if (item) this.memory.push({ item, ...candidate });
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
      'SELECT session_id, tool_name, input, at FROM transcript_pending_tools WHERE tool_use_id = ?',
      [toolUseId],
    );
    return row
      ? {
          sessionId: String(row.session_id),
          name: String(row.tool_name),
          // Uses stored before inputs were kept have none: they are summarised as far as their name goes.
          input: row.input === null ? {} : (JSON.parse(String(row.input)) as Json),
          at: Number(row.at),
          stored: true,
        }
      : undefined;
  }

  /** Write the chunk's rows; call inside the transaction that also records how far the file was read. */
  flush(): RowCounts {
    const counts: RowCounts = { toolCalls: 0, failures: 0, prompts: 0, sessions: 0 };
    const changes = () => this.store.number('SELECT total_changes()');

    // History older than the detail window is folded already: reading it again must add nothing.
    const folded = foldedDetail(this.store);
    const fresh = (row: SqlValue[]) => !folded(row[1] as string | null, row[6] as number);
    this.calls = this.calls.filter(fresh);
    this.failedCalls = this.failedCalls.filter(fresh);
    this.prompts = this.prompts.filter((prompt) => !folded(prompt.sessionId, prompt.at));
    this.memory = this.memory.filter((candidate) => !folded(candidate.sessionId, candidate.at));

    // Asked before the calls are written: the memory of a call the hooks (or an earlier import) recorded is there.
    const recordedCalls = this.recordedToolUses();
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
        'INSERT OR REPLACE INTO transcript_pending_tools (tool_use_id, session_id, tool_name, input, at) VALUES (?, ?, ?, ?, ?)',
        [id, use.sessionId, use.name, JSON.stringify(use.input), use.at],
      );
      use.stored = true;
    }

    for (const prompt of this.prompts) {
      prompt.added = this.writePrompt(prompt);
      if (prompt.added) counts.prompts++;
    }
    this.writeMemory(recordedCalls);

    for (const [id, facts] of this.sessions)
      if (upsertImportedSession(this.store, id, { ...facts, agent: 'claude-code' })) counts.sessions++;

    this.calls = [];
    this.failedCalls = [];
    this.prompts = [];
    this.memory = [];
    this.resolved.clear();
    this.resolvedStored = [];
    this.sessions.clear();
    return counts;
  }

  /** The tool_use_ids of this chunk's remembered calls that are already in tool_calls. */
  private recordedToolUses(): Set<string> {
    const ids = [...new Set(this.memory.flatMap((candidate) => candidate.toolUseId ?? []))];
    if (ids.length === 0) return new Set();
    const rows = this.store.all(
      'SELECT tool_use_id FROM tool_calls WHERE tool_use_id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(ids)],
    );
    return new Set(rows.map((row) => String(row.tool_use_id)));
  }

  /** Observations of what this chunk added, in line order, through the writer hook events go through. */
  private writeMemory(recordedCalls: Set<string>): void {
    const kept = this.memory.filter((candidate) => {
      if (candidate.prompt) return candidate.prompt.added === true;
      if (candidate.toolUseId) return !recordedCalls.has(candidate.toolUseId);
      return !observedNear(
        this.store,
        { sessionId: candidate.sessionId, at: candidate.at, source: 'compaction' },
        false,
      );
    });
    if (kept.length === 0) return;
    const observations = new ObservationWriter(this.store);
    observations.loadSessions(kept.map((candidate) => candidate.sessionId));
    for (const { item, sessionId, at } of kept) observations.add(item, null, sessionId, at);
    observations.flush();
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
