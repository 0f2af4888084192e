/**
 * Writes what an agent's session file says (neutral `SessionItem`s, see agents/adapter.ts) as sessions,
 * prompts, tool calls and observations. Idempotent, so a changed file is simply read again whole: tool
 * calls are unique on their call id, prompts on their key (claiming the row a hook recorded instead of
 * adding one), compactions near an observed one are not remembered twice.
 */
import type { SessionItem } from '../agents/adapter';
import type { AgentEvent, AgentId } from '../agents/types';
import { type MemoryItem, analyseAgentEvent } from '../memory/eventMemory';
import { ObservationWriter } from '../memory/observationWriter';
import { foldedDetail } from '../history/compaction';
import type { Store } from '../storage/store';
import { observedNear } from '../log/sharedActivity';
import { type RowCounts, storedText, upsertImportedSession } from './transcriptRows';

interface SessionFacts {
  first: number;
  last: number;
  cwd?: string;
  model?: string;
}

/** Tool calls, prompts and compactions: what folded history already counts. */
const isActivity = (item: SessionItem) =>
  item.type === 'tool' || item.type === 'prompt' || item.type === 'compact';

/** Write `items`, read from `file` of `agent`'s, inside the caller's transaction. */
export function writeSessionItems(
  store: Store,
  agent: AgentId,
  file: string,
  items: readonly SessionItem[],
): RowCounts {
  const counts: RowCounts = { toolCalls: 0, failures: 0, prompts: 0, sessions: 0 };
  const sessions = new Map<string, SessionFacts>();
  const memory: Array<{ item: MemoryItem; sessionId: string; at: number }> = [];
  const changes = () => store.number('SELECT changes()');
  const folded = foldedDetail(store);
  const remember = (event: AgentEvent, sessionId: string, at: number) => {
    const item = analyseAgentEvent(event);
    if (item) memory.push({ item, sessionId, at });
  };

  for (const item of items) {
    let facts = sessions.get(item.sessionId);
    if (!facts) sessions.set(item.sessionId, (facts = { first: item.at, last: item.at }));
    facts.first = Math.min(facts.first, item.at);
    facts.last = Math.max(facts.last, item.at);
    const base = { agent, name: '', sessionId: item.sessionId, cwd: facts.cwd };
    if (isActivity(item) && folded(item.sessionId, item.at)) continue;
    switch (item.type) {
      case 'session':
        facts.cwd ??= item.cwd;
        facts.model = item.model ?? facts.model;
        break;
      case 'usage':
        facts.model = item.model ?? facts.model;
        break;
      case 'tool': {
        const failed = item.call.outcome?.failed === true;
        store.run(
          `INSERT OR IGNORE INTO tool_calls (event_id, tool_use_id, session_id, tool_name, success, duration_ms, error, at)
           VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)`,
          [
            item.call.useId,
            item.sessionId,
            item.call.name,
            failed ? 0 : 1,
            item.call.outcome?.durationMs ?? null,
            failed && item.call.outcome?.error !== undefined ? storedText(item.call.outcome.error) : null,
            item.at,
          ],
        );
        if (changes() === 0) break;
        counts.toolCalls++;
        if (failed) counts.failures++;
        remember(
          { ...base, kind: failed ? 'tool-failed' : 'tool-end', tool: item.call },
          item.sessionId,
          item.at,
        );
        break;
      }
      case 'prompt':
        if (writePrompt(store, item)) {
          counts.prompts++;
          remember({ ...base, kind: 'prompt', prompt: item.text }, item.sessionId, item.at);
        }
        break;
      case 'compact':
        if (!observedNear(store, { sessionId: item.sessionId, at: item.at, source: 'compaction' }, false))
          remember({ ...base, kind: 'compact', trigger: item.trigger }, item.sessionId, item.at);
        break;
    }
  }

  if (memory.length > 0) {
    const observations = new ObservationWriter(store);
    observations.loadSessions(memory.map((entry) => entry.sessionId));
    for (const { item, sessionId, at } of memory) observations.add(item, null, sessionId, at);
    observations.flush();
  }

  for (const [id, facts] of sessions)
    if (upsertImportedSession(store, id, { ...facts, transcriptPath: file, agent })) counts.sessions++;
  return counts;
}

/**
 * A prompt already imported (same key) is skipped; one the hooks recorded (same session and text, not yet
 * matched) is claimed, the nearest in time. Returns whether a row was added.
 */
function writePrompt(store: Store, prompt: Extract<SessionItem, { type: 'prompt' }>): boolean {
  const key = `session:${prompt.key}`;
  if (store.get('SELECT 1 AS found FROM prompts WHERE source_key = ?', [key])) return false;
  const text = storedText(prompt.text);
  const hookRow = store.get(
    `SELECT id FROM prompts WHERE session_id = ? AND text = ? AND source_key IS NULL
     ORDER BY abs(at - ?) LIMIT 1`,
    [prompt.sessionId, text, prompt.at],
  );
  if (hookRow) {
    store.run('UPDATE prompts SET source_key = ? WHERE id = ?', [key, hookRow.id]);
    return false;
  }
  store.run('INSERT INTO prompts (event_id, session_id, text, at, source_key) VALUES (NULL, ?, ?, ?, ?)', [
    prompt.sessionId,
    text,
    prompt.at,
    key,
  ]);
  return true;
}
