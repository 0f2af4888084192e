/** Seed 004's scoring: recency, frequency and relevance points, 0-10 each, and the bands of their sum. */

const MINUTE = 60_000;

/** By time since last access: <=5 min 10, <=15 min 8, <=30 min 6, <=1 h 4, <=2 h 2, older 0. */
export function recencyPoints(ageMs: number): number {
  const minutes = Math.max(0, ageMs) / MINUTE;
  if (minutes <= 5) return 10;
  if (minutes <= 15) return 8;
  if (minutes <= 30) return 6;
  if (minutes <= 60) return 4;
  if (minutes <= 120) return 2;
  return 0;
}

/** By accesses this session: 10+ 10, 7-9 8, 4-6 6, 2-3 4, 1 2, 0 0. */
export function frequencyPoints(accesses: number): number {
  if (accesses >= 10) return 10;
  if (accesses >= 7) return 8;
  if (accesses >= 4) return 6;
  if (accesses >= 2) return 4;
  if (accesses >= 1) return 2;
  return 0;
}

/**
 * By the share of the item's tags found among the prompt's keywords: >= 0.75 direct match 10, >= 0.5 related 8,
 * >= 0.3 same stack 6, >= 0.15 same layer 4, any overlap 2, none 0; 2 (generic) when either side is empty.
 */
export function relevancePoints(tags: readonly string[], keywords: readonly string[]): number {
  if (tags.length === 0 || keywords.length === 0) return 2;
  const wanted = new Set(keywords);
  const share = tags.filter((tag) => wanted.has(tag)).length / tags.length;
  if (share >= 0.75) return 10;
  if (share >= 0.5) return 8;
  if (share >= 0.3) return 6;
  if (share >= 0.15) return 4;
  if (share > 0) return 2;
  return 0;
}

export type Band = 'prune' | 'consider' | 'keep-unless-critical' | 'keep';

/** 0-8 prune now, 9-15 consider, 16-22 keep unless critical, 23-30 keep. */
export function band(total: number): Band {
  if (total <= 8) return 'prune';
  if (total <= 15) return 'consider';
  if (total <= 22) return 'keep-unless-critical';
  return 'keep';
}
