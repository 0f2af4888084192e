/**
 * Hook events and imported transcripts can record the same activity, in either order; whichever arrives
 * second adds no observation. Tool calls and prompts are matched as their rows are (tool_use_id; a prompt
 * claiming its twin). A compaction or a subagent's report has no key: the same session and source within
 * a few minutes (and, for a report, the same words) is the same one.
 */
import { PROMPT_WIDTH, type ParsedChunk, TOOL_CALL_WIDTH } from './chunkParse';
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
 * Drop from a chunk of hook events the memory of what an import already remembered. Call in the chunk's
 * transaction before its rows are written; a project that never imported pays one lookup.
 */
export function dropImportedActivity(store: Store, parsed: ParsedChunk): void {
  if (parsed.memory.length === 0 || !store.get('SELECT 1 AS found FROM transcript_files LIMIT 1')) return;
  const events = new Set(parsed.memory.map((entry) => entry.event));
  const recorded = new Set([
    ...importedToolCalls(store, parsed, events),
    ...claimedPrompts(store, parsed, events),
  ]);
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
  if (byUseId.size === 0) return [];
  return store
    .all(
      `SELECT tool_use_id FROM tool_calls
       WHERE tool_use_id IN (SELECT value FROM json_each(?)) AND event_id IS NULL`,
      [JSON.stringify([...byUseId.keys()])],
    )
    .map((row) => byUseId.get(String(row.tool_use_id))!);
}

/**
 * Events of prompts that will claim an imported row instead of adding one: as PromptRows does, each
 * imported, unclaimed prompt of the same session and text is claimed once, in event order.
 */
function claimedPrompts(store: Store, parsed: ParsedChunk, events: ReadonlySet<number>): number[] {
  const prompts = parsed.prompts;
  const sessions = new Set<string>();
  for (let i = 0; i < prompts.length; i += PROMPT_WIDTH)
    if (prompts[i + 1] !== null) sessions.add(String(prompts[i + 1]));
  if (sessions.size === 0) return [];
  const claimable = new Map<string, number>();
  for (const row of store.all(
    `SELECT session_id, text, count(*) AS n FROM prompts
     WHERE session_id IN (SELECT value FROM json_each(?)) AND event_id IS NULL AND source_key IS NOT NULL
     GROUP BY session_id, text`,
    [JSON.stringify([...sessions])],
  ))
    claimable.set(`${String(row.session_id)}\u0000${String(row.text)}`, Number(row.n));
  const claimed: number[] = [];
  for (let i = 0; i < prompts.length; i += PROMPT_WIDTH) {
    if (prompts[i + 1] === null) continue;
    const key = `${String(prompts[i + 1])}\u0000${String(prompts[i + 2])}`;
    const left = claimable.get(key) ?? 0;
    if (left === 0) continue;
    claimable.set(key, left - 1);
    if (events.has(prompts[i] as number)) claimed.push(prompts[i] as number);
  }
  return claimed;
}
