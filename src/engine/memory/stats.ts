import type { Store } from '../storage/store';
import { OBSERVATION_TYPES, type ObservationType } from './types';

/** How many observations the memory holds, by type (forgotten ones left out), e.g. for type filters. */
export function memoryCounts(db: Store): { total: number; byType: Record<ObservationType, number> } {
  const byType = Object.fromEntries(OBSERVATION_TYPES.map((type) => [type, 0])) as Record<
    ObservationType,
    number
  >;
  let total = 0;
  for (const row of db.all(
    'SELECT type, count(*) AS n FROM observations WHERE forgotten_at IS NULL GROUP BY type',
  )) {
    const n = Number(row.n);
    total += n;
    if (String(row.type) in byType) byType[String(row.type) as ObservationType] = n;
  }
  return { total, byType };
}

/** An observation's text and whether it is forgotten, by its full id; undefined when there is none. */
export function observationState(db: Store, id: string): { text: string; forgotten: boolean } | undefined {
  const row = db.get('SELECT text, forgotten_at FROM observations WHERE id = ?', [id]);
  return row && { text: String(row.text), forgotten: row.forgotten_at !== null };
}
