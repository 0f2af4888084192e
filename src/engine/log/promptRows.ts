import { BatchInsert } from '../storage/batchInsert';
import type { Store } from '../storage/store';

interface HookPrompt {
  eventId: number;
  sessionId: string | null;
  text: string;
  at: number;
}

/**
 * Prompts from hook events of one chunk. A transcript import may have recorded a prompt first: the hook
 * event then claims that row (same session and text, nearest in time) instead of adding one. Claims are
 * looked up once per chunk, not once per prompt: each query costs tens of microseconds in sql.js.
 */
export class PromptRows {
  private pending: HookPrompt[] = [];
  private readonly rows: BatchInsert;

  constructor(private readonly store: Store) {
    this.rows = new BatchInsert(store, 'prompts', ['event_id', 'session_id', 'text', 'at']);
  }

  add(prompt: HookPrompt): void {
    this.pending.push(prompt);
  }

  flush(): void {
    const prompts = this.pending;
    this.pending = [];
    if (prompts.length === 0) return;
    const claimable = this.importedRows(prompts);
    for (const prompt of prompts) {
      const candidates =
        prompt.sessionId === null ? undefined : claimable.get(`${prompt.sessionId}\u0000${prompt.text}`);
      if (candidates && candidates.length > 0) {
        let nearest = 0;
        for (let i = 1; i < candidates.length; i++)
          if (Math.abs(candidates[i].at - prompt.at) < Math.abs(candidates[nearest].at - prompt.at))
            nearest = i;
        const [claimed] = candidates.splice(nearest, 1);
        this.store.run('UPDATE prompts SET event_id = ? WHERE id = ?', [prompt.eventId, claimed.id]);
      } else {
        this.rows.add([prompt.eventId, prompt.sessionId, prompt.text, prompt.at]);
      }
    }
    this.rows.flush();
  }

  /** Unclaimed imported prompts of the chunk's sessions, by session and text. */
  private importedRows(prompts: HookPrompt[]): Map<string, Array<{ id: number; at: number }>> {
    const sessions = [...new Set(prompts.map((prompt) => prompt.sessionId).filter((id) => id !== null))];
    const byKey = new Map<string, Array<{ id: number; at: number }>>();
    if (sessions.length === 0) return byKey;
    const rows = this.store.all(
      `SELECT id, session_id, text, at FROM prompts
       WHERE session_id IN (SELECT value FROM json_each(?)) AND event_id IS NULL AND source_key IS NOT NULL`,
      [JSON.stringify(sessions)],
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
