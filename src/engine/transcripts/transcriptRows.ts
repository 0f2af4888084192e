import { createHash } from 'node:crypto';
import type { TranscriptAdapter } from '../agents/adapter';
import type { Json, TranscriptEntry } from '../agents/transcriptEntry';
import type { Store } from '../storage/store';
import type { ImportedSession } from '../log/sessionRows';
import { ImportedActivityWriter, type RowCounts } from './importedActivity';
import { type EventBase, TranscriptMemory } from './transcriptEvents';

/** What a transcript file says about itself, beyond its lines. */
export interface TranscriptFileContext {
  /** The session of lines that record none: the file's first recorded session, else the one its path says. */
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

/** Messages Claude Code writes itself (API errors, "no response requested") carry this model and no usage. */
const SYNTHETIC_MODEL = '<synthetic>';

interface PendingTool {
  sessionId: string;
  name: string;
  input: Json;
  at: number;
  /** Already in transcript_pending_tools (from an earlier chunk or import). */
  stored: boolean;
}

/** The last assistant text of a session's turn so far: its final report once the turn ends. */
interface PendingReport {
  /** The message's `responseKey`: its text blocks may come on several lines. */
  key?: string;
  at: number;
  text: string;
  base: EventBase;
}

/**
 * Turns transcript entries into the tool calls, prompts, compactions and sessions that the import writer
 * (importedActivity.ts) writes, one chunk at a time, in `flush()` inside the chunk's transaction. A tool use
 * waits for its result, in this chunk or a later one (transcript_pending_tools keeps it between imports).
 */
export class TranscriptRowWriter {
  private readonly pending = new Map<string, PendingTool>();
  private readonly reports = new Map<string, PendingReport>();
  private readonly sessions = new Map<string, ImportedSession>();
  private resolvedStored: string[] = [];
  private readonly activity: ImportedActivityWriter;
  private readonly memory: TranscriptMemory;

  constructor(
    private readonly store: Store,
    private readonly adapter: TranscriptAdapter,
  ) {
    this.activity = new ImportedActivityWriter(store);
    this.memory = new TranscriptMemory(adapter.payloads);
  }

  add(entry: TranscriptEntry, file: TranscriptFileContext): void {
    if (entry.at !== undefined) file.lastAt = entry.at;
    const at = entry.at ?? file.lastAt;
    const sessionId = entry.sessionId ?? file.sessionId;
    file.cwd = entry.cwd ?? file.cwd;
    // A `summary` line titles a conversation (often an earlier one), a `file-history-snapshot` records file
    // backups, with no time of its own: no activity of any session (stamped with the file's time, a copied
    // or touched transcript's session would seem to be running still).
    if (entry.type === 'summary' || entry.type === 'file-history-snapshot') return;
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
      const base: EventBase = { session_id: use.sessionId, cwd: file.cwd };
      this.activity.toolCall(
        {
          useId: result.toolUseId,
          sessionId: use.sessionId,
          name: use.name,
          failed: result.isError,
          durationMs: at >= use.at ? at - use.at : null,
          error: result.errorText,
          at,
        },
        this.memory.toolCall(use.name, use.input, result, base),
      );
    }

    const base: EventBase = { session_id: sessionId, cwd: file.cwd };
    const prompt = file.subagent ? undefined : this.adapter.transcripts.promptOf(entry);
    if (prompt !== undefined) {
      this.tellReport(sessionId);
      const key = entry.uuid
        ? `transcript:${entry.uuid}`
        : `transcript:${sessionId}:${at}:${createHash('sha1').update(prompt).digest('hex').slice(0, 16)}`;
      this.activity.prompt({ key, sessionId, text: prompt, at }, this.memory.prompt(prompt, base));
    }
    if (file.subagent || entry.sidechain) return;
    if (entry.subtype === 'compact_boundary')
      this.activity.remember(sessionId, at, this.memory.compaction(entry.compactTrigger, base));
    // The agent's own words: its summary when it compacted, and what it last said to the user.
    if (entry.compactSummary && entry.userText)
      this.activity.remember(sessionId, at, this.memory.compactSummary(entry.userText, base));
    if (entry.type === 'assistant' && entry.assistantText?.trim() && entry.model !== SYNTHETIC_MODEL)
      this.noteReport(sessionId, entry.assistantText, entry.responseKey, at, base);
  }

  /** A tool_use-only message leaves the text before it as the turn's last. */
  private noteReport(
    sessionId: string,
    text: string,
    key: string | undefined,
    at: number,
    base: EventBase,
  ): void {
    const earlier = this.reports.get(sessionId);
    if (earlier && key !== undefined && earlier.key === key) {
      earlier.text += `\n${text}`;
      earlier.at = at;
    } else this.reports.set(sessionId, { key, at, text, base });
  }

  /**
   * The turn's report, told when the next prompt comes or a chunk ends (the end of the file, or of what it
   * holds so far): the memory keeps a session's latest, so a turn told early is replaced by its true end.
   */
  private tellReport(sessionId: string): void {
    const report = this.reports.get(sessionId);
    if (!report) return;
    this.reports.delete(sessionId);
    this.activity.remember(sessionId, report.at, this.memory.report(report.text, report.base));
  }

  private noteSession(id: string, entry: TranscriptEntry, file: TranscriptFileContext, at: number): void {
    let facts = this.sessions.get(id);
    if (!facts) {
      facts = { first: at, last: at, transcriptPath: file.transcriptPath, agent: this.adapter.id };
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
    for (const id of this.resolvedStored)
      this.store.run('DELETE FROM transcript_pending_tools WHERE tool_use_id = ?', [id]);
    this.resolvedStored = [];
    // Uses still waiting are kept, so a result appended after this import is matched by the next one.
    for (const [id, use] of this.pending) {
      if (use.stored) continue;
      this.store.run(
        'INSERT OR REPLACE INTO transcript_pending_tools (tool_use_id, session_id, tool_name, input, at) VALUES (?, ?, ?, ?, ?)',
        [id, use.sessionId, use.name, JSON.stringify(use.input), use.at],
      );
      use.stored = true;
    }
    for (const sessionId of [...this.reports.keys()]) this.tellReport(sessionId);
    const counts = this.activity.flush(this.sessions);
    this.sessions.clear();
    return counts;
  }
}
