import type { Store } from '../store';
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
