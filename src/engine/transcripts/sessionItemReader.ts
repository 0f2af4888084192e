/**
 * The database-free half of importing session items: what a chunk of an agent's `SessionItem`s comes to (tool
 * calls paired with their results, prompts, compactions, the session's latest report, session facts), each
 * with what the memory makes of it, in the order read. Needs no database, so it runs on the transcript worker
 * for large imports as well as inline; the writer (sessionItemRows.ts) applies a chunk's `ChunkActivity` in
 * one transaction. One reader reads one file, chunk after chunk: a `tool-use` waits in it for its result.
 */
import type { AgentAdapter, SessionItem, ToolUseItem } from '../agents/adapter';
import type { ToolResult } from '../agents/transcriptEntry';
import type { AgentEvent } from '../agents/types';
import { storedText } from '../log/chunkParse';
import type { ImportedPrompt } from '../log/promptRows';
import type { ImportedSession } from '../log/sessionRows';
import type { ImportedToolCall } from '../log/toolCallRows';
import { type MemoryItem, analyseAgentEvent } from '../memory/eventMemory';

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

/** A finished call, as the tool_calls writer takes it, with what the memory makes of it. */
interface CallEntry {
  kind: 'call';
  call: ImportedToolCall;
  memory: MemoryItem[];
}

/** One thing a chunk read, in the order read. */
export type ActivityEntry =
  | CallEntry
  | { kind: 'prompt'; prompt: ImportedPrompt; memory?: MemoryItem }
  | { kind: 'remember'; sessionId: string; at: number; memory?: MemoryItem }
  /** A result whose use this reader never read: an earlier import kept it (transcript_pending_tools). */
  | { kind: 'result'; sessionId: string; at: number; result: ToolResult; cwd?: string };

/** What one chunk of session items comes to; plain data, so it crosses from a worker as JSON. */
export interface ChunkActivity {
  entries: ActivityEntry[];
  sessions: Array<[string, ImportedSession]>;
  /** Uses still waiting for their result, not kept yet: transcript_pending_tools keeps them between imports. */
  waiting: ToolUseItem[];
  /** Uses kept in transcript_pending_tools whose result has come. */
  resolved: string[];
}

/** The last report of a session so far: the final report of its latest turn that made one. */
interface PendingReport {
  key?: string;
  at: number;
  text: string;
}

/** A started call waiting for its result; `kept` once a chunk has handed it on as waiting. */
interface PendingTool extends ToolUseItem {
  kept: boolean;
}

/** A finished call as a row and what it is remembered as; none for a call that never ran (no use, no failure). */
function callEntry(
  call: Omit<ImportedToolCall, 'error'> & { error?: string },
  events: readonly AgentEvent[],
): CallEntry | undefined {
  if (events.some((event) => event.tool?.outcome?.notRun)) return undefined;
  return {
    kind: 'call',
    call: { ...call, error: call.error === undefined ? null : storedText(call.error) },
    memory: events.flatMap((event) => analyseAgentEvent(event) ?? []),
  };
}

/** The call a use and its result make, with the events its hooks would have said. */
export function pairedCall(
  adapter: AgentAdapter,
  use: ToolUseItem,
  result: ToolResult,
  at: number,
  cwd: string | undefined,
): CallEntry | undefined {
  return callEntry(
    {
      useId: result.toolUseId,
      sessionId: use.sessionId,
      name: use.name,
      at,
      failed: result.isError,
      durationMs: at >= use.at ? at - use.at : null,
      error: result.errorText,
    },
    adapter.transcripts?.toolEvents(use, result, cwd) ?? [],
  );
}

export class SessionItemReader {
  private readonly pending = new Map<string, PendingTool>();
  private readonly reports = new Map<string, PendingReport>();
  private sessions = new Map<string, ImportedSession>();
  /** The working directory each session last said, for what the memory makes relative. */
  private readonly cwds = new Map<string, string>();
  private entries: ActivityEntry[] = [];
  private resolved: string[] = [];

  constructor(
    private readonly adapter: AgentAdapter,
    private readonly file: SessionFileOptions,
  ) {}

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
        if (item.endedAt !== undefined) {
          session.ended = item.endedAt;
          session.endReason = item.endReason;
        }
        break;
      case 'usage':
        session.model = item.model ?? session.model;
        break;
      case 'tool': {
        const failed = item.call.outcome?.failed === true;
        const entry = callEntry(
          {
            useId: item.call.useId,
            sessionId,
            name: item.call.name,
            at,
            failed,
            durationMs: item.call.outcome?.durationMs ?? null,
            error: failed ? item.call.outcome?.error : undefined,
          },
          [this.event(sessionId, { kind: failed ? 'tool-failed' : 'tool-end', tool: item.call })],
        );
        if (entry) this.entries.push(entry);
        break;
      }
      case 'tool-use':
        if (!this.pending.has(item.useId)) this.pending.set(item.useId, { ...item, kept: false });
        break;
      case 'tool-result': {
        const { result } = item;
        const use = this.pending.get(result.toolUseId);
        if (!use) {
          this.entries.push({ kind: 'result', sessionId, at, result, cwd: this.cwdOf(sessionId) });
          break;
        }
        this.pending.delete(result.toolUseId);
        if (use.kept) this.resolved.push(result.toolUseId);
        const entry = pairedCall(this.adapter, use, result, at, this.cwdOf(use.sessionId));
        if (entry) this.entries.push(entry);
        break;
      }
      case 'prompt':
        this.entries.push({
          kind: 'prompt',
          prompt: {
            key: `${this.file.promptKeys}:${item.key}`,
            sessionId,
            text: storedText(item.text),
            at,
          },
          memory: analyseAgentEvent(this.event(sessionId, { kind: 'prompt', prompt: item.text })),
        });
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

  /**
   * What the chunk read so far comes to. Each session's latest report is told now, at the end of a chunk (the
   * end of the file, or of what it holds so far): the memory keeps only a session's latest, so the reports of
   * the turns before it are never summarised.
   */
  take(): ChunkActivity {
    for (const [sessionId, report] of this.reports)
      this.remember(sessionId, report.at, { kind: 'stop', message: report.text });
    this.reports.clear();
    const waiting: ToolUseItem[] = [];
    for (const use of this.pending.values()) {
      if (use.kept) continue;
      use.kept = true;
      waiting.push({
        type: 'tool-use',
        sessionId: use.sessionId,
        at: use.at,
        useId: use.useId,
        name: use.name,
        input: use.input,
      });
    }
    const activity: ChunkActivity = {
      entries: this.entries,
      sessions: [...this.sessions],
      waiting,
      resolved: this.resolved,
    };
    this.entries = [];
    this.resolved = [];
    this.sessions = new Map();
    return activity;
  }

  private cwdOf(sessionId: string): string | undefined {
    return this.cwds.get(sessionId) ?? this.file.cwd;
  }

  private event(sessionId: string, fields: Omit<AgentEvent, 'agent' | 'name'>): AgentEvent {
    return { agent: this.adapter.id, name: '', sessionId, cwd: this.cwdOf(sessionId), ...fields };
  }

  private remember(sessionId: string, at: number, fields: Omit<AgentEvent, 'agent' | 'name'>): void {
    this.entries.push({
      kind: 'remember',
      sessionId,
      at,
      memory: analyseAgentEvent(this.event(sessionId, fields)),
    });
  }
}
