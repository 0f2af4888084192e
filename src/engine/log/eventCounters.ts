/**
 * What is read of events, kept as counters as they are ingested (there is no table of events: the log is
 * their record): how many, per agent, the newest, and the last id given (tool calls, prompts and
 * observations name their event by id).
 */
import { addToCounter, counterValue } from '../storage/counters';
import type { Store } from '../storage/store';
import { EVENT_WIDTH } from './chunkParse';

// The same names fill the counters of older databases in schema.ts's migration.
const AGENT_PREFIX = 'events.agent:';
const LAST_RECEIVED_AT = 'events.last_received_at';
const COUNT = 'events.count';
const LAST_ID = 'events.last_id';

/** Ids for a chunk's events, in order: its first event's. */
export function firstNewEventId(store: Store): number {
  return counterValue(store, LAST_ID) + 1;
}

/** All events ingested. */
export function eventCount(store: Store): number {
  return counterValue(store, COUNT);
}

/** Count a chunk's events (`EVENT_WIDTH` values each: received at, agent), which took the ids from `firstNewEventId`. */
export function countEvents(store: Store, events: ReadonlyArray<unknown>): void {
  const count = events.length / EVENT_WIDTH;
  if (count === 0) return;
  addToCounter(store, COUNT, count);
  addToCounter(store, LAST_ID, count);
  const perAgent = new Map<string, number>();
  let newest: number | undefined;
  for (let i = 0; i < events.length; i += EVENT_WIDTH) {
    const at = events[i];
    const agent = events[i + 1];
    if (typeof at === 'number' && (newest === undefined || at > newest)) newest = at;
    if (typeof agent === 'string') perAgent.set(agent, (perAgent.get(agent) ?? 0) + 1);
  }
  for (const [agent, agentCount] of perAgent) addToCounter(store, AGENT_PREFIX + agent, agentCount);
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
