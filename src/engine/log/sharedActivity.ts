/**
 * Hook events and imported transcripts can record the same activity, in either order; whichever arrives
 * second adds no observation. Tool calls and prompts are matched as their rows are (tool_use_id; a prompt
 * claiming its twin). A compaction or a subagent's report has no key: the same session and source within
 * a few minutes (and, for a report, the same words) is the same one.
 */
import { type ParsedChunk, TOOL_CALL_WIDTH } from './chunkParse';
import { recordedCalls } from './toolCallRows';
import type { ObservationSource } from '../memory/types';
import type { Store } from '../storage/store';

/**
 * How far apart the two records of one compaction or subagent report may be: PreCompact fires before the
 * summary is written and the transcript's boundary after it. Two compactions of one session are further
 * apart than this: the context has to fill up again in between.
 */
const SAME_ACTIVITY_MS = 10 * 60_000;

export interface ObservationProbe {
  sessionId: string;
  at: number;
  source: ObservationSource;
  /** Also require the same text. */
  text?: string;
}

/** Whether an observation like this one is already remembered (`imported`: only one a transcript gave). */
export function observedNear(store: Store, probe: ObservationProbe, imported: boolean): boolean {
  const row = store.get(
    `SELECT 1 AS found FROM observations
     WHERE at BETWEEN ? AND ? AND session_id = ? AND source = ? ${probe.text === undefined ? '' : 'AND text = ?'}
       ${imported ? 'AND event_id IS NULL' : ''}
     LIMIT 1`,
    [
      probe.at - SAME_ACTIVITY_MS,
      probe.at + SAME_ACTIVITY_MS,
      probe.sessionId,
      probe.source,
      ...(probe.text === undefined ? [] : [probe.text]),
    ],
  );
  return row !== undefined;
}

/**
 * Drop from a chunk of hook events the memory of what an import already remembered (`claimingPrompts`: the
 * events whose prompt claims an imported row, see promptRows.ts). Call in the chunk's transaction before its
 * rows are written; a project that never imported pays one lookup.
 */
export function dropImportedActivity(
  store: Store,
  parsed: ParsedChunk,
  claimingPrompts: readonly number[],
): void {
  if (parsed.memory.length === 0 || !store.get('SELECT 1 AS found FROM transcript_files LIMIT 1')) return;
  const events = new Set(parsed.memory.map((entry) => entry.event));
  const recorded = new Set([...importedToolCalls(store, parsed, events), ...claimingPrompts]);
  parsed.memory = parsed.memory.filter(({ event, sessionId, at, item }) => {
    if (recorded.has(event)) return false;
    if (!('draft' in item) || sessionId === null) return true;
    const { source, text } = item.draft;
    if (source === 'compaction') return !observedNear(store, { sessionId, at, source }, true);
    if (source === 'subagent') return !observedNear(store, { sessionId, at, source, text }, true);
    return true;
  });
}

/** Events of tool calls an import recorded first (their rows will not be added again). */
function importedToolCalls(store: Store, parsed: ParsedChunk, events: ReadonlySet<number>): number[] {
  const byUseId = new Map<string, number>();
  const calls = parsed.toolCalls;
  for (let i = 0; i < calls.length; i += TOOL_CALL_WIDTH) {
    const event = calls[i] as number;
    const useId = calls[i + 1];
    if (typeof useId === 'string' && events.has(event)) byUseId.set(useId, event);
  }
  const imported = recordedCalls(store, [...byUseId.keys()], true);
  return [...imported].map((useId) => byUseId.get(useId)!);
}
