/**
 * After a compaction, the session that continues: what the SessionStart hook with `source: "compact"` hands
 * the agent. Its own summary already says what it was doing and what is left, in its words; this is the
 * record beside it: every ask of the user's since the session began, the files in flight, the checks' last
 * state and the failures still open. Not the previous session's story over again.
 */
import type { ProjectStore } from '../storage/projectStore';
import { RECALL_FRAMING } from '../memory/recall';
import { cleanPiece } from '../memory/text';
import { emptyStory, storyIsEmpty, storyRows, tellStory } from '../memory/sessionStory';
import type { Citations } from './citations';
import { SESSION_CONTEXT_BUDGET, SESSION_CONTEXT_TITLE, bodyLine } from './sessionContextText';
import { clock, storyLines } from './storyLines';

/** Asks told: all of a session's up to this many, else its first two and latest ones. */
const ASKS = 8;
const ASK_MAX = 300;

/** The context for the live session when it compacts, or undefined when no session is live. */
export function continuationText(
  engine: ProjectStore,
  now: number,
  citations: Citations,
): string | undefined {
  const session = engine.store.get(
    `SELECT id, started_at, last_event_at FROM sessions INDEXED BY sessions_by_last_event
     WHERE ended_at IS NULL ORDER BY last_event_at DESC LIMIT 1`,
  );
  if (!session) return undefined;
  const { digestStory, rows } = storyRows(engine.store, {
    id: String(session.id),
    from: Number(session.started_at),
    until: Math.max(now, Number(session.last_event_at)),
  });
  const story = tellStory(digestStory ?? emptyStory(), rows);
  // Every prompt, short ones too ("Implement spotter-gqc"), which the memory does not keep on their own.
  const prompts = engine.store
    .all('SELECT text, at FROM prompts INDEXED BY prompts_by_session WHERE session_id = ? ORDER BY at', [
      session.id,
    ])
    .map((row) => ({ text: cleanPiece(String(row.text), ASK_MAX), at: Number(row.at) }));
  if (prompts.length > 0)
    story.asks = prompts.length <= ASKS ? prompts : [...prompts.slice(0, 2), ...prompts.slice(2 - ASKS)];
  if (storyIsEmpty(story)) return undefined;
  const lines = storyLines(story, citations, { recordOnly: true }).map(bodyLine);
  const text = [
    `${SESSION_CONTEXT_TITLE}\n${RECALL_FRAMING}`,
    [
      '## This Session Before the Compaction',
      `Recorded from ${clock(Number(session.started_at))} to ${clock(Number(session.last_event_at))} UTC; your summary above says where the work stands.`,
      ...lines,
    ].join('\n'),
  ].join('\n\n');
  return text.length > SESSION_CONTEXT_BUDGET ? `${text.slice(0, SESSION_CONTEXT_BUDGET - 3)}...` : text;
}
