/**
 * What the dashboard shows of the `events` table, kept as counters as rows are written: counting events per
 * agent and finding the newest took a scan of the whole table (about 95 ms at 100,000 events in sql.js) at
 * every dashboard update.
 */
import type { Store } from '../storage/store';
import { EVENT_WIDTH } from './chunkParse';

// The same names fill the counters of older databases in schema.ts's migration.
export const AGENT_PREFIX = 'events.agent:';
export const LAST_RECEIVED_AT = 'events.last_received_at';

/** Count a chunk's event rows (`EVENT_WIDTH` values each: offset, received at, session, kind, agent). */
export function countEventRows(store: Store, events: ReadonlyArray<unknown>): void {
  const perAgent = new Map<string, number>();
  let newest: number | undefined;
  for (let i = 0; i < events.length; i += EVENT_WIDTH) {
    const at = events[i + 1];
    const agent = events[i + 4];
    if (typeof at === 'number' && (newest === undefined || at > newest)) newest = at;
    if (typeof agent === 'string') perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
  }
  for (const [agent, count] of perAgent) {
    store.run(
      'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value',
      [AGENT_PREFIX + agent, count],
    );
  }
  if (newest !== undefined) {
    store.run(
      'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)',
      [LAST_RECEIVED_AT, newest],
    );
  }
}

/** Events per agent id, in id order. */
export function eventsByAgent(store: Store): Record<string, number> {
  return Object.fromEntries(
    store
      .all('SELECT name, value FROM counters WHERE name LIKE ? ORDER BY name', [`${AGENT_PREFIX}%`])
      .map((row) => [String(row.name).slice(AGENT_PREFIX.length), Number(row.value)]),
  );
}

/** When the newest event was received, or null before any. */
export function lastEventReceivedAt(store: Store): number | null {
  const row = store.get('SELECT value FROM counters WHERE name = ?', [LAST_RECEIVED_AT]);
  return row?.value == null ? null : Number(row.value);
}
