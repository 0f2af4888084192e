/** The second and third steps of progressive disclosure: what happened around a moment, then full texts. */
import type { Store } from '../storage/store';
import { resolveId } from './ids';
import { MemoryQueryError, filterSql, observationColumns, toObservation } from './query';
import { clip, oneLine } from './text';
import type { Observation } from './types';

/** Seed 003: before 1-20 (default 5), after 0-20 (default 5), entries cut to 200 characters. */
export const TIMELINE_LIMITS = {
  before: { min: 1, max: 20, default: 5 },
  after: { min: 0, max: 20, default: 5 },
};
const TIMELINE_ENTRY_CHARS = 200;
export const MAX_GET_IDS = 10;

export interface TimelineOptions {
  /** Epoch ms to center on; default now. Ignored when anchorId is given. */
  anchorAt?: number;
  /** An observation id or unique prefix to center on. */
  anchorId?: string;
  before?: number;
  after?: number;
  sessionId?: string;
  now?: number;
}

export interface TimelineEntry extends Observation {
  /** The observation the timeline is centered on. */
  anchor: boolean;
}

export interface TimelineResult {
  anchorAt: number;
  anchorId: string | null;
  /** Chronological; texts cut to TIMELINE_ENTRY_CHARS. */
  entries: TimelineEntry[];
  /** How many observations lie before and after the anchor in all (with the session filter). */
  totalBefore: number;
  totalAfter: number;
  shownBefore: number;
  shownAfter: number;
  /** The before/after counts used, after clamping into range. */
  before: number;
  after: number;
}

function clamp(value: number | undefined, limits: { min: number; max: number; default: number }): number {
  if (value === undefined || !Number.isFinite(value)) return limits.default;
  return Math.min(limits.max, Math.max(limits.min, Math.floor(value)));
}

export function timeline(db: Store, options: TimelineOptions = {}): TimelineResult {
  const before = clamp(options.before, TIMELINE_LIMITS.before);
  const after = clamp(options.after, TIMELINE_LIMITS.after);
  let anchor: TimelineEntry | undefined;
  // Order is (at, seq); a time anchor sits after everything at its instant, an observation at its own place.
  let anchorSeq = Number.MAX_SAFE_INTEGER;
  if (options.anchorId !== undefined) {
    const resolved = resolveId(db, options.anchorId);
    if (!resolved.ok) throw new MemoryQueryError(resolved.error);
    const row = db.get(`SELECT seq, ${observationColumns()} FROM observations WHERE id = ?`, [resolved.id]);
    if (row) {
      anchor = { ...toObservation(row), anchor: true };
      anchorSeq = Number(row.seq);
    }
  }
  const anchorAt = anchor?.at ?? options.anchorAt ?? options.now ?? Date.now();
  const filters = filterSql({ sessionId: options.sessionId });
  const earlier = `at <= ? AND (at < ? OR seq < ?)`;
  const later = `at >= ? AND (at > ? OR seq > ?)`;
  const position = [anchorAt, anchorAt, anchorSeq];
  const side = (condition: string, order: 'ASC' | 'DESC', limit: number) =>
    limit === 0
      ? []
      : db
          .all(
            `SELECT ${observationColumns()} FROM observations WHERE ${filters.sql} AND ${condition}
             ORDER BY at ${order}, seq ${order} LIMIT ?`,
            [...filters.params, ...position, limit],
          )
          .map((row) => ({ ...toObservation(row), anchor: false }));
  const count = (condition: string) =>
    db.number(`SELECT count(*) FROM observations WHERE ${filters.sql} AND ${condition}`, [
      ...filters.params,
      ...position,
    ]);
  const earlierEntries = side(earlier, 'DESC', before).reverse();
  const laterEntries = side(later, 'ASC', after);
  const entries = [...earlierEntries, ...(anchor ? [anchor] : []), ...laterEntries].map((entry) => ({
    ...entry,
    text: clip(oneLine(entry.text), TIMELINE_ENTRY_CHARS),
  }));
  return {
    anchorAt,
    anchorId: anchor?.id ?? null,
    entries,
    totalBefore: count(earlier),
    totalAfter: count(later),
    shownBefore: earlierEntries.length,
    shownAfter: laterEntries.length,
    before,
    after,
  };
}

export interface GetResult {
  observations: Observation[];
  /** Ids that named nothing (or several), with why. */
  missing: Array<{ id: string; error: string }>;
}

/** Full observations by id or unique prefix, in the order asked; at most MAX_GET_IDS. */
export function getObservations(db: Store, ids: readonly string[]): GetResult {
  if (ids.length > MAX_GET_IDS)
    throw new MemoryQueryError(`at most ${MAX_GET_IDS} ids per call (got ${ids.length}); ask in batches`);
  const result: GetResult = { observations: [], missing: [] };
  const seen = new Set<string>();
  for (const asked of ids) {
    const resolved = resolveId(db, asked);
    if (!resolved.ok) {
      result.missing.push({ id: asked, error: resolved.error });
      continue;
    }
    if (seen.has(resolved.id)) continue;
    seen.add(resolved.id);
    const row = db.get(`SELECT ${observationColumns()} FROM observations WHERE id = ?`, [resolved.id]);
    if (row) result.observations.push(toObservation(row));
  }
  return result;
}
