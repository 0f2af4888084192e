/** Named whole-number counters in the `counters` table: what is read of rows no longer kept one by one. */
import type { Store } from './store';

/** A counter's value; 0 before it is first set. */
export function counterValue(store: Store, name: string): number {
  return store.number('SELECT value FROM counters WHERE name = ?', [name]);
}

export function addToCounter(store: Store, name: string, by: number): void {
  store.run(
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value',
    [name, by],
  );
}

export function setCounter(store: Store, name: string, value: number): void {
  store.run(
    'INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    [name, value],
  );
}
