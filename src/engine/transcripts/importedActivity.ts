/**
 * What an import read from an agent's past sessions (Claude Code's transcripts and the other agents' session
 * files alike), buffered for one chunk and handed to the tables' writers (log/toolCallRows.ts, promptRows.ts,
 * sessionRows.ts) and the observation writer. Reading a file again adds nothing: tool calls are unique on their
 * call id, prompts on their key; observations come only with the rows the import added, and a compaction near
 * one already observed is not remembered again. `flush()` writes inside the caller's transaction.
 */
import { foldedDetail } from '../history/compaction';
import { type ImportedPrompt, writeImportedPrompts } from '../log/promptRows';
import { type ImportedSession, writeImportedSession } from '../log/sessionRows';
import { observedNear } from '../log/sharedActivity';
import { type ImportedToolCall, recordedCalls, ToolCallRows } from '../log/toolCallRows';
import type { MemoryItem } from '../memory/eventMemory';
import { ObservationWriter } from '../memory/observationWriter';
import type { Store } from '../storage/store';

export interface RowCounts {
  toolCalls: number;
  failures: number;
  prompts: number;
  sessions: number;
}

export function noRows(): RowCounts {
  return { toolCalls: 0, failures: 0, prompts: 0, sessions: 0 };
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

export class ImportedActivityWriter {
  private calls: ImportedToolCall[] = [];
  private readonly callIds = new Set<string>();
  private prompts: BufferedPrompt[] = [];
  private memory: MemoryCandidate[] = [];
  private readonly toolCalls: ToolCallRows;

  constructor(private readonly store: Store) {
    this.toolCalls = new ToolCallRows(store);
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
    const row: BufferedPrompt = { ...prompt };
    this.prompts.push(row);
    if (memory) this.memory.push({ item: memory, sessionId: prompt.sessionId, at: prompt.at, prompt: row });
  }

  /** What the memory keeps of a line that adds no activity row (a compaction, the agent's own words). */
  remember(sessionId: string, at: number, memory: MemoryItem | undefined): void {
    if (memory) this.memory.push({ item: memory, sessionId, at });
  }

  /** Write the chunk's rows and the sessions it saw; call inside the transaction that records the read. */
  flush(sessions: ReadonlyMap<string, ImportedSession>): RowCounts {
    const counts = noRows();
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
    const recorded = recordedCalls(this.store, [
      ...new Set(memory.flatMap((candidate) => candidate.toolUseId ?? [])),
    ]);
    const written = this.toolCalls.writeImportedCalls(calls);
    counts.toolCalls = written.added;
    counts.failures = written.failures;
    writeImportedPrompts(this.store, prompts).forEach((added, i) => {
      prompts[i].added = added;
      if (added) counts.prompts++;
    });
    this.writeMemory(memory, recorded);
    for (const [id, session] of sessions)
      if (writeImportedSession(this.store, id, session)) counts.sessions++;
    return counts;
  }

  /** Observations of what this chunk added, in the order read, through the writer hook events go through. */
  private writeMemory(memory: readonly MemoryCandidate[], recorded: ReadonlySet<string>): void {
    const kept = memory.filter((candidate) => {
      if (candidate.prompt) return candidate.prompt.added === true;
      if (candidate.toolUseId) return !recorded.has(candidate.toolUseId);
      // A session's latest report or summary has one id: the writer keeps it once (observationWriter.ts).
      if ('draft' in candidate.item && candidate.item.draft.latestOfSession) return true;
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
}
