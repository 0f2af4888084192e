/**
 * Turns what an agent's session file says (neutral `SessionItem`s, see agents/adapter.ts) into the tool
 * calls, prompts, compactions and sessions that the import writer (importedActivity.ts) writes, one chunk at
 * a time, in `flush()` inside the chunk's transaction. Every agent's items go through here: a whole file read
 * at once (Codex, opencode, Cline, VS Code's agent) or a message transcript read a chunk at a time (Claude
 * Code). A `tool-use` waits for its `tool-result`, in this chunk or a later one (transcript_pending_tools keeps
 * it between imports). Reading a file again adds nothing twice.
 */
import type { AgentAdapter, SessionItem, ToolUseItem } from '../agents/adapter';
import type { Json } from '../agents/transcriptEntry';
import type { AgentEvent } from '../agents/types';
import { analyseAgentEvent } from '../memory/eventMemory';
import type { Store } from '../storage/store';
import type { ImportedSession } from '../log/sessionRows';
import { ImportedActivityWriter, type RowCounts } from './importedActivity';

export interface SessionFileOptions {
  /** Recorded on the file's sessions; undefined for a subagent's file. */
  transcriptPath?: string;
  /** The file's recorded working directory, for sessions whose items have not said theirs. */
  cwd?: string;
  /**
   * How prompt keys are stored: `session:` for files read whole, `transcript:` for message transcripts (as
   * each import has keyed them from the start, so a prompt read again is not counted twice).
   */
  promptKeys: 'session' | 'transcript';
}

/** The last report of a session so far: the final report of its latest turn that made one. */
interface PendingReport {
  key?: string;
  at: number;
  text: string;
}

/** A started call waiting for its result; `stored` once it is in transcript_pending_tools. */
interface PendingTool extends ToolUseItem {
  stored: boolean;
}

export class SessionItemWriter {
  private readonly pending = new Map<string, PendingTool>();
  private readonly reports = new Map<string, PendingReport>();
  private readonly sessions = new Map<string, ImportedSession>();
  /** The working directory each session last said, for what the memory makes relative. */
  private readonly cwds = new Map<string, string>();
  private resolvedStored: string[] = [];
  private readonly activity: ImportedActivityWriter;

  constructor(
    private readonly store: Store,
    private readonly adapter: AgentAdapter,
    private readonly file: SessionFileOptions,
  ) {
    this.activity = new ImportedActivityWriter(store);
  }

  add(item: SessionItem): void {
    const { sessionId, at } = item;
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { first: at, last: at, transcriptPath: this.file.transcriptPath, agent: this.adapter.id };
      this.sessions.set(sessionId, session);
    }
    session.first = Math.min(session.first, at);
    session.last = Math.max(session.last, at);
    switch (item.type) {
      case 'session':
        session.cwd ??= item.cwd;
        if (item.cwd !== undefined) this.cwds.set(sessionId, item.cwd);
        session.model = item.model ?? session.model;
        break;
      case 'usage':
        session.model = item.model ?? session.model;
        break;
      case 'tool': {
        const failed = item.call.outcome?.failed === true;
        this.toolCall(item.call.useId, item.sessionId, item.call.name, at, {
          failed,
          durationMs: item.call.outcome?.durationMs ?? null,
          error: failed ? item.call.outcome?.error : undefined,
          events: [this.event(sessionId, { kind: failed ? 'tool-failed' : 'tool-end', tool: item.call })],
        });
        break;
      }
      case 'tool-use':
        if (!this.pending.has(item.useId)) this.pending.set(item.useId, { ...item, stored: false });
        break;
      case 'tool-result': {
        const { result } = item;
        const use = this.pending.get(result.toolUseId) ?? this.storedPending(result.toolUseId);
        if (!use) break;
        this.pending.delete(result.toolUseId);
        if (use.stored) this.resolvedStored.push(result.toolUseId);
        this.toolCall(result.toolUseId, use.sessionId, use.name, at, {
          failed: result.isError,
          durationMs: at >= use.at ? at - use.at : null,
          error: result.errorText,
          events: this.adapter.transcripts?.toolEvents(use, result, this.cwdOf(use.sessionId)) ?? [],
        });
        break;
      }
      case 'prompt':
        this.activity.prompt(
          { key: `${this.file.promptKeys}:${item.key}`, sessionId, text: item.text, at },
          analyseAgentEvent(this.event(sessionId, { kind: 'prompt', prompt: item.text })),
        );
        break;
      case 'compact':
        this.remember(sessionId, at, { kind: 'compact', trigger: item.trigger });
        break;
      case 'compact-summary':
        this.remember(sessionId, at, { kind: 'compacted', summary: item.text });
        break;
      case 'report': {
        const earlier = this.reports.get(sessionId);
        if (earlier && item.key !== undefined && earlier.key === item.key) {
          earlier.text += `\n${item.text}`;
          earlier.at = at;
        } else this.reports.set(sessionId, { key: item.key, at, text: item.text });
        break;
      }
      case 'context':
        break;
    }
  }

  private cwdOf(sessionId: string): string | undefined {
    return this.cwds.get(sessionId) ?? this.file.cwd;
  }

  private event(sessionId: string, fields: Omit<AgentEvent, 'agent' | 'name'>): AgentEvent {
    return { agent: this.adapter.id, name: '', sessionId, cwd: this.cwdOf(sessionId), ...fields };
  }

  private remember(sessionId: string, at: number, fields: Omit<AgentEvent, 'agent' | 'name'>): void {
    this.activity.remember(sessionId, at, analyseAgentEvent(this.event(sessionId, fields)));
  }

  private toolCall(
    useId: string,
    sessionId: string,
    name: string,
    at: number,
    outcome: { failed: boolean; durationMs: number | null; error?: string; events: AgentEvent[] },
  ): void {
    this.activity.toolCall(
      {
        useId,
        sessionId,
        name,
        failed: outcome.failed,
        durationMs: outcome.durationMs,
        error: outcome.error,
        at,
      },
      outcome.events.flatMap((event) => analyseAgentEvent(event) ?? []),
    );
  }

  /**
   * The session's latest report, told when a chunk ends (the end of the file, or of what it holds so far):
   * the memory keeps only a session's latest, so the reports of the turns before it are never summarised.
   */
  private tellReport(sessionId: string): void {
    const report = this.reports.get(sessionId);
    if (!report) return;
    this.reports.delete(sessionId);
    this.remember(sessionId, report.at, { kind: 'stop', message: report.text });
  }

  private storedPending(toolUseId: string): PendingTool | undefined {
    const row = this.store.get(
      'SELECT session_id, tool_name, input, at FROM transcript_pending_tools WHERE tool_use_id = ?',
      [toolUseId],
    );
    return row
      ? {
          type: 'tool-use',
          useId: toolUseId,
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

/** Write `items`, read whole from `file` of `adapter`'s agent, inside the caller's transaction. */
export function writeSessionItems(
  store: Store,
  adapter: AgentAdapter,
  file: string,
  items: readonly SessionItem[],
): RowCounts {
  const writer = new SessionItemWriter(store, adapter, { transcriptPath: file, promptKeys: 'session' });
  for (const item of items) writer.add(item);
  return writer.flush();
}
