import { BatchInsert } from '../storage/batchInsert';
import type { Store } from '../storage/store';
import { PROMPT_WIDTH } from './chunkParse';

/**
 * The one writer of the prompts table, for both of its sources. A prompt an import read has a key, and claims
 * the row the hooks recorded (same session and text, nearest in time) instead of adding a second one; a hook
 * prompt claims an imported row the same way (PromptRows below).
 */

export interface ImportedPrompt {
  /** Unique to the line or item it came from, so a second import of it is known. */
  key: string;
  sessionId: string;
  /** As stored: redacted and clipped (`storedText`). */
  text: string;
  at: number;
}

/**
 * Writes the prompts an import read, in order, each unless already imported or recorded by the hooks; says
 * for each whether it added a row. What is stored is looked up once per chunk, not per prompt (each query
 * costs tens of microseconds in sql.js).
 */
export function writeImportedPrompts(store: Store, prompts: readonly ImportedPrompt[]): boolean[] {
  if (prompts.length === 0) return [];
  const imported = new Set(
    store
      .all('SELECT source_key FROM prompts WHERE source_key IN (SELECT value FROM json_each(?))', [
        JSON.stringify(prompts.map((prompt) => prompt.key)),
      ])
      .map((row) => String(row.source_key)),
  );
  // The hook rows an imported prompt may claim: same session and text, not claimed yet.
  const unclaimed = new Map<string, Array<{ id: number; at: number }>>();
  for (const row of store.all(
    `SELECT id, session_id, text, at FROM prompts
     WHERE source_key IS NULL AND session_id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify([...new Set(prompts.map((prompt) => prompt.sessionId))])],
  )) {
    const key = `${String(row.session_id)}\u0000${String(row.text)}`;
    const rows = unclaimed.get(key) ?? [];
    rows.push({ id: Number(row.id), at: Number(row.at) });
    unclaimed.set(key, rows);
  }
  const rows = new BatchInsert(store, 'prompts', ['event_id', 'session_id', 'text', 'at', 'source_key']);
  const added = prompts.map((prompt) => {
    if (imported.has(prompt.key)) return false;
    imported.add(prompt.key);
    const candidates = unclaimed.get(`${prompt.sessionId}\u0000${prompt.text}`);
    if (candidates && candidates.length > 0) {
      // The nearest in time (the first of equals, as the database lists them).
      let nearest = 0;
      candidates.forEach((candidate, i) => {
        if (Math.abs(candidate.at - prompt.at) < Math.abs(candidates[nearest].at - prompt.at)) nearest = i;
      });
      const [claimed] = candidates.splice(nearest, 1);
      store.run('UPDATE prompts SET source_key = ? WHERE id = ?', [prompt.key, claimed.id]);
      return false;
    }
    rows.add([null, prompt.sessionId, prompt.text, prompt.at, prompt.key]);
    return true;
  });
  rows.flush();
  return added;
}

/**
 * A chunk's hook prompts (chunkParse's flat `prompts`, PROMPT_WIDTH values each). A transcript import may have
 * recorded a prompt first: the hook event then claims that row (same session and text, nearest in time)
 * instead of adding one. The claims are planned before anything of the chunk is written, since the memory
 * of a claiming event is dropped (sharedActivity.ts); they are looked up once per chunk, not once per prompt:
 * each query costs tens of microseconds in sql.js.
 */
export class PromptRows {
  /** Offset of a claiming prompt in the chunk's `prompts` -> the imported row it claims. */
  private readonly claims: Map<number, number>;
  private readonly rows: BatchInsert;

  constructor(
    private readonly store: Store,
    private readonly prompts: Array<number | string | null>,
  ) {
    this.rows = new BatchInsert(store, 'prompts', ['event_id', 'session_id', 'text', 'at']);
    this.claims = this.planClaims();
  }

  /** The chunk's events (as indexes in the chunk) whose prompt claims an imported row. */
  claimingEvents(): number[] {
    return [...this.claims.keys()].map((offset) => this.prompts[offset] as number);
  }

  /** Write the prompts, their events' ids now `firstEventId` + index; inside the chunk's transaction. */
  write(firstEventId: number): void {
    const prompts = this.prompts;
    for (let i = 0; i < prompts.length; i += PROMPT_WIDTH) {
      const eventId = firstEventId + (prompts[i] as number);
      const claimed = this.claims.get(i);
      if (claimed !== undefined)
        this.store.run('UPDATE prompts SET event_id = ? WHERE id = ?', [eventId, claimed]);
      else this.rows.add([eventId, prompts[i + 1], prompts[i + 2], prompts[i + 3]]);
    }
    this.rows.flush();
  }

  /** Each unclaimed imported prompt is claimed once, in event order, by the nearest hook prompt in time. */
  private planClaims(): Map<number, number> {
    const claims = new Map<number, number>();
    const claimable = this.importedRows();
    if (claimable.size === 0) return claims;
    const prompts = this.prompts;
    for (let i = 0; i < prompts.length; i += PROMPT_WIDTH) {
      if (prompts[i + 1] === null) continue;
      const candidates = claimable.get(`${String(prompts[i + 1])}\u0000${String(prompts[i + 2])}`);
      if (!candidates || candidates.length === 0) continue;
      const at = prompts[i + 3] as number;
      let nearest = 0;
      for (let c = 1; c < candidates.length; c++)
        if (Math.abs(candidates[c].at - at) < Math.abs(candidates[nearest].at - at)) nearest = c;
      const [claimed] = candidates.splice(nearest, 1);
      claims.set(i, claimed.id);
    }
    return claims;
  }

  /** Unclaimed imported prompts of the chunk's sessions, by session and text. */
  private importedRows(): Map<string, Array<{ id: number; at: number }>> {
    const sessions = new Set<string>();
    for (let i = 0; i < this.prompts.length; i += PROMPT_WIDTH)
      if (this.prompts[i + 1] !== null) sessions.add(String(this.prompts[i + 1]));
    const byKey = new Map<string, Array<{ id: number; at: number }>>();
    if (sessions.size === 0) return byKey;
    const rows = this.store.all(
      `SELECT id, session_id, text, at FROM prompts
       WHERE session_id IN (SELECT value FROM json_each(?)) AND event_id IS NULL AND source_key IS NOT NULL`,
      [JSON.stringify([...sessions])],
    );
    for (const row of rows) {
      const key = `${String(row.session_id)}\u0000${String(row.text)}`;
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      list.push({ id: Number(row.id), at: Number(row.at) });
    }
    return byKey;
  }
}
