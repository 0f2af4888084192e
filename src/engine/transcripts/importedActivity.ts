/**
 * The one writer of what an import read from an agent's past sessions (Claude Code's transcripts and the
 * other agents' session files alike): tool calls, prompts, sessions and their observations. Reading a file
 * again adds nothing: tool calls are unique on their call id; a prompt has a key, and claims the prompt the
 * hooks recorded (same session and text, nearest in time) instead of adding a second row; observations come
 * only with the rows the import added, and a compaction near one already observed is not remembered again.
 * It buffers one chunk; `flush()` writes it inside the caller's transaction.
 */
import { foldedDetail } from '../history/compaction';
import { observedNear } from '../log/sharedActivity';
import type { MemoryItem } from '../memory/eventMemory';
import { ObservationWriter } from '../memory/observationWriter';
import { redactText } from '../redact';
import { BatchInsert } from '../storage/batchInsert';
import type { Store } from '../storage/store';

export interface RowCounts {
  toolCalls: number;
  failures: number;
  prompts: number;
  sessions: number;
}

export interface ImportedToolCall {
  useId: string;
  sessionId: string;
  name: string;
  failed: boolean;
  durationMs: number | null;
  error?: string;
  at: number;
}

export interface ImportedPrompt {
  /** Unique to the line or item it came from, so a second import of it is known. */
  key: string;
  sessionId: string;
  text: string;
  at: number;
}

/** What an import learned of a session: its span, and what it did not know (first value kept). */
export interface ImportedSession {
  first: number;
  last: number;
  model?: string;
  transcriptPath?: string;
  cwd?: string;
  agent: string;
}

/** A prompt buffered for the chunk; `flush()` says whether it added a row. */
interface BufferedPrompt extends ImportedPrompt {
  added?: boolean;
}

/** What a row means for the memory, kept only when the import is first to record it. */
interface MemoryCandidate {
  item: MemoryItem;
  sessionId: string;
  at: number;
  toolUseId?: string;
  prompt?: BufferedPrompt;
}

/** The longest prompt or error text kept in a row, as for hook events (log/chunkParse.ts). */
const MAX_TEXT = 8_000;

/** Stored as hook rows store it: redacted, then clipped, so that one prompt from both sources compares equal. */
function storedText(text: string): string {
  const redacted = redactText(text).text;
  return redacted.length > MAX_TEXT ? `${redacted.slice(0, MAX_TEXT)}…` : redacted;
}

const TOOL_CALL_COLUMNS = ['tool_use_id', 'session_id', 'tool_name', 'success', 'duration_ms', 'error', 'at'];

export class ImportedActivityWriter {
  private calls: ImportedToolCall[] = [];
  private readonly callIds = new Set<string>();
  private prompts: BufferedPrompt[] = [];
  private memory: MemoryCandidate[] = [];
  private readonly successInsert: BatchInsert;
  private readonly failureInsert: BatchInsert;

  constructor(private readonly store: Store) {
    this.successInsert = new BatchInsert(store, 'tool_calls', TOOL_CALL_COLUMNS, 'INSERT OR IGNORE');
    this.failureInsert = new BatchInsert(store, 'tool_calls', TOOL_CALL_COLUMNS, 'INSERT OR IGNORE');
  }

  /** A finished call and what it is remembered as; a call seen again (a rewound branch) is one call. */
  toolCall(call: ImportedToolCall, memory: readonly MemoryItem[]): void {
    if (this.callIds.has(call.useId)) return;
    this.callIds.add(call.useId);
    this.calls.push(call);
    for (const item of memory)
      this.memory.push({ item, sessionId: call.sessionId, at: call.at, toolUseId: call.useId });
  }

  prompt(prompt: ImportedPrompt, memory: MemoryItem | undefined): void {
    const row: BufferedPrompt = { ...prompt, text: storedText(prompt.text) };
    this.prompts.push(row);
    if (memory) this.memory.push({ item: memory, sessionId: prompt.sessionId, at: prompt.at, prompt: row });
  }

  compaction(sessionId: string, at: number, memory: MemoryItem | undefined): void {
    if (memory) this.memory.push({ item: memory, sessionId, at });
  }

  /** Write the chunk's rows and the sessions it saw; call inside the transaction that records the read. */
  flush(sessions: ReadonlyMap<string, ImportedSession>): RowCounts {
    const counts: RowCounts = { toolCalls: 0, failures: 0, prompts: 0, sessions: 0 };
    // History older than the detail window is folded already: reading it again must add nothing.
    const folded = foldedDetail(this.store);
    const fresh = (row: { sessionId: string; at: number }) => !folded(row.sessionId, row.at);
    const calls = this.calls.filter(fresh);
    const prompts = this.prompts.filter(fresh);
    const memory = this.memory.filter(fresh);
    this.calls = [];
    this.callIds.clear();
    this.prompts = [];
    this.memory = [];

    // Asked before the calls are written: the memory of a call the hooks (or an earlier import) recorded is there.
    const recordedCalls = this.recordedToolUses(memory);
    const changes = () => this.store.number('SELECT total_changes()');
    const before = changes();
    for (const call of calls) if (!call.failed) this.successInsert.add(toolCallRow(call));
    this.successInsert.flush();
    const afterSuccesses = changes();
    for (const call of calls) if (call.failed) this.failureInsert.add(toolCallRow(call));
    this.failureInsert.flush();
    counts.failures = changes() - afterSuccesses;
    counts.toolCalls = changes() - before;

    for (const prompt of prompts) {
      prompt.added = this.writePrompt(prompt);
      if (prompt.added) counts.prompts++;
    }
    this.writeMemory(memory, recordedCalls);
    for (const [id, session] of sessions) if (this.writeSession(id, session)) counts.sessions++;
    return counts;
  }

  /** The call ids of the chunk's remembered calls that are already in tool_calls. */
  private recordedToolUses(memory: readonly MemoryCandidate[]): Set<string> {
    const ids = [...new Set(memory.flatMap((candidate) => candidate.toolUseId ?? []))];
    if (ids.length === 0) return new Set();
    const rows = this.store.all(
      'SELECT tool_use_id FROM tool_calls WHERE tool_use_id IN (SELECT value FROM json_each(?))',
      [JSON.stringify(ids)],
    );
    return new Set(rows.map((row) => String(row.tool_use_id)));
  }

  /**
   * A prompt already imported (same key) is skipped. One the hook recorded (same session and text, not yet
   * matched to an import) is claimed by setting its key - the closest in time when the text was sent more
   * than once - instead of adding a row. Returns whether a row was added.
   */
  private writePrompt(prompt: ImportedPrompt): boolean {
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

  /** Observations of what this chunk added, in the order read, through the writer hook events go through. */
  private writeMemory(memory: readonly MemoryCandidate[], recordedCalls: ReadonlySet<string>): void {
    const kept = memory.filter((candidate) => {
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

  /** A session as the import read it: its span widened, what it did not know filled in. Returns whether it is new. */
  private writeSession(id: string, session: ImportedSession): boolean {
    const added = !this.store.get('SELECT 1 AS found FROM sessions WHERE id = ?', [id]);
    this.store.run(
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
        session.first,
        session.last,
        session.model ?? null,
        session.transcriptPath ?? null,
        session.cwd ?? null,
        session.agent,
      ],
    );
    return added;
  }
}

function toolCallRow(call: ImportedToolCall): Array<string | number | null> {
  return [
    call.useId,
    call.sessionId,
    call.name,
    call.failed ? 0 : 1,
    call.durationMs,
    call.error === undefined ? null : storedText(call.error),
    call.at,
  ];
}
