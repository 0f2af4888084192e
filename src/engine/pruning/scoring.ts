/**
 * Seed 004's scoring: recency, frequency and relevance points, 0-10 each, and the bands of their sum. Each
 * tier carries the words that say what it means, so a score can be explained beside its number.
 */
import type { ContextItem } from '../live/contextItems';

export interface Tier {
  points: number;
  /** The tier in words: `within 15 min`, `2-3 uses`, `related`. */
  label: string;
}

export interface RelevanceTier extends Tier {
  /** What the tier says about the item, for its reason. */
  words: string;
}

const MINUTE = 60_000;

/** By time since last access: <=5 min 10, <=15 min 8, <=30 min 6, <=1 h 4, <=2 h 2, older 0. */
const RECENCY: ReadonlyArray<Tier & { maxMinutes: number }> = [
  { maxMinutes: 5, points: 10, label: 'within 5 min' },
  { maxMinutes: 15, points: 8, label: 'within 15 min' },
  { maxMinutes: 30, points: 6, label: 'within 30 min' },
  { maxMinutes: 60, points: 4, label: 'within 1 h' },
  { maxMinutes: 120, points: 2, label: 'within 2 h' },
  { maxMinutes: Infinity, points: 0, label: 'over 2 h' },
];

/** By accesses this session: 10+ 10, 7-9 8, 4-6 6, 2-3 4, 1 2, 0 0. */
const FREQUENCY: ReadonlyArray<Tier & { min: number }> = [
  { min: 10, points: 10, label: '10+ uses' },
  { min: 7, points: 8, label: '7-9 uses' },
  { min: 4, points: 6, label: '4-6 uses' },
  { min: 2, points: 4, label: '2-3 uses' },
  { min: 1, points: 2, label: '1 use' },
  { min: 0, points: 0, label: 'no use' },
];

/**
 * By the share of the item's tags found among the prompt's keywords: >= 0.75 direct match 10, >= 0.5 related 8,
 * >= 0.3 same stack 6, >= 0.15 same layer 4, any overlap 2, none 0; 2 (generic) when either side is empty.
 */
const RELATED = 'related to your latest prompt';
const PARTLY = 'partly related to your latest prompt';
const RELEVANCE: ReadonlyArray<RelevanceTier & { minShare: number }> = [
  { minShare: 0.75, points: 10, label: 'direct keyword match', words: RELATED },
  { minShare: 0.5, points: 8, label: 'related', words: RELATED },
  { minShare: 0.3, points: 6, label: 'same stack', words: PARTLY },
  { minShare: 0.15, points: 4, label: 'same layer', words: PARTLY },
  // Any overlap at all.
  {
    minShare: Number.MIN_VALUE,
    points: 2,
    label: 'slight overlap',
    words: 'barely related to your latest prompt',
  },
  { minShare: 0, points: 0, label: 'unrelated', words: 'unrelated to your latest prompt' },
];
const GENERIC: RelevanceTier = {
  points: 2,
  label: 'generic',
  words: 'no keywords to compare with your latest prompt',
};

/** The seed's first prompt of a session: no history yet, so everything is recent and nothing used. */
export const FIRST_PROMPT_TIERS: { recency: Tier; frequency: Tier } = {
  recency: { points: 10, label: 'first prompt: everything is recent' },
  frequency: { points: 0, label: 'first prompt: no history yet' },
};

export function recencyTier(ageMs: number): Tier {
  const minutes = Math.max(0, ageMs) / MINUTE;
  return RECENCY.find((tier) => minutes <= tier.maxMinutes)!;
}

export function frequencyTier(accesses: number): Tier {
  return FREQUENCY.find((tier) => accesses >= tier.min)!;
}

export function relevanceTier(tags: readonly string[], keywords: readonly string[]): RelevanceTier {
  if (tags.length === 0 || keywords.length === 0) return GENERIC;
  const wanted = new Set(keywords);
  const share = tags.filter((tag) => wanted.has(tag)).length / tags.length;
  return RELEVANCE.find((tier) => share >= tier.minShare)!;
}

export const recencyPoints = (ageMs: number): number => recencyTier(ageMs).points;
export const frequencyPoints = (accesses: number): number => frequencyTier(accesses).points;
export const relevancePoints = (tags: readonly string[], keywords: readonly string[]): number =>
  relevanceTier(tags, keywords).points;

export type Band = 'prune' | 'consider' | 'keep-unless-critical' | 'keep';

/** 0-8 prune now, 9-15 consider, 16-22 keep unless critical, 23-30 keep. */
const BANDS: ReadonlyArray<{ max: number; band: Band; label: string }> = [
  { max: 8, band: 'prune', label: 'prune now (0-8)' },
  { max: 15, band: 'consider', label: 'consider pruning (9-15)' },
  { max: 22, band: 'keep-unless-critical', label: 'keep unless critical (16-22)' },
  { max: Infinity, band: 'keep', label: 'keep (23-30)' },
];

const bandOf = (total: number) => BANDS.find((entry) => total <= entry.max)!;
export const band = (total: number): Band => bandOf(total).band;
/** The band in words with its range, e.g. `prune now (0-8)`. */
export const bandLabel = (total: number): string => bandOf(total).label;

export interface ScoredItem extends ContextItem {
  recency: number;
  frequency: number;
  relevance: number;
  score: number;
  band: Band;
  /** The tier each part fell in (`over 2 h`, `1 use`, `unrelated`), for the explanation. */
  tiers: { recency: Tier; frequency: Tier; relevance: RelevanceTier };
}
