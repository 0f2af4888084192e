/**
 * Seed 001: which remembered observations deserve a place in the agent's context. Relevance in [0, 1] is
 * 0.4 recency + 0.3 importance + 0.2 agent match + 0.1 keyword overlap; a mode sets the bar.
 */
import { promptKeywords } from './keywords';
import type { SelectionMode } from '../../shared/settings';

export type { SelectionMode };

export const IMPORTANCE: Readonly<Record<string, number>> = {
  decision: 1.0,
  problem: 0.9,
  warning: 0.8,
  refactor: 0.7,
  success: 0.6,
  discovery: 0.5,
  feature: 0.4,
  bugfix: 0.4,
  pattern: 0.3,
  solution: 0.3,
};
const DEFAULT_IMPORTANCE = 0.3;

/** Lowest relevance kept: conservative keeps only high-confidence items, aggressive takes more. */
export const MODE_THRESHOLDS: Readonly<Record<SelectionMode, number>> = {
  conservative: 0.6,
  balanced: 0.45,
  aggressive: 0.3,
};

export interface SelectableEntry {
  type: string;
  text: string;
  createdAt: number;
  /** The agent that produced it: `plan`, `build`, a subagent type, or null when unknown. */
  agentType?: string | null;
}

export interface ContextSelectionOptions {
  now: number;
  /** The agent type of the session the context is for. */
  agentType?: string | null;
  /** Words of the recent conversation; an entry mentioning them gets the keyword part. */
  keywords?: readonly string[];
  mode?: SelectionMode;
}

export interface RelevanceParts {
  recency: number;
  importance: number;
  agentMatch: number;
  keywordMatch: number;
  score: number;
}

export function relevanceParts(entry: SelectableEntry, options: ContextSelectionOptions): RelevanceParts {
  const hoursAgo = Math.max(0, options.now - entry.createdAt) / 3_600_000;
  const recency = Math.exp(-hoursAgo / 24);
  const importance = IMPORTANCE[entry.type] ?? DEFAULT_IMPORTANCE;
  const agentMatch = options.agentType && entry.agentType === options.agentType ? 1 : 0;
  const keywords = options.keywords ?? [];
  const words = new Set(
    promptKeywords(entry.text).concat(entry.text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []),
  );
  const keywordMatch = keywords.length
    ? keywords.filter((keyword) => words.has(keyword)).length / keywords.length
    : 0;
  const score = 0.4 * recency + 0.3 * importance + 0.2 * agentMatch + 0.1 * keywordMatch;
  return { recency, importance, agentMatch, keywordMatch, score };
}

export function calculateRelevanceScore(entry: SelectableEntry, options: ContextSelectionOptions): number {
  return relevanceParts(entry, options).score;
}

/** Entries at or above the mode's bar, most relevant first. */
export function selectRelevantContext<T extends SelectableEntry>(
  entries: readonly T[],
  options: ContextSelectionOptions,
): Array<T & { relevance: number }> {
  const threshold = MODE_THRESHOLDS[options.mode ?? 'balanced'];
  return entries
    .map((entry) => ({ ...entry, relevance: calculateRelevanceScore(entry, options) }))
    .filter((entry) => entry.relevance >= threshold)
    .sort((a, b) => b.relevance - a.relevance);
}
