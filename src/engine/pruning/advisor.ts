/**
 * The pruning advisor (seed 004): scores what sits in the agent's context and, once the window fills up,
 * says what to drop first, with the tokens each drop saves, why, and an action that does it.
 */
import type {
  AdviceFields,
  ContextItemType,
  Phase,
  Recommendation,
  RecommendationAction,
  UsageLevel,
} from '../../shared/context';
import type { ContextItem } from '../live/contextItems';
import { usageLevel } from '../live/usageLevel';
import { type ItemWords, displayName, explanation, reason } from './explain';
import { type TaskFocus, taskFocus } from './focus';
import { itemTags, promptKeywords } from '../context/keywords';
import {
  FIRST_PROMPT_TIERS,
  type ScoredItem,
  band,
  frequencyTier,
  recencyTier,
  relevanceTier,
} from './scoring';

const PHASES: Record<UsageLevel, Phase> = {
  ok: 'silent',
  elevated: 'identify',
  high: 'aggressive',
  critical: 'critical',
  compact: 'compact',
};

export interface AdviceInput {
  percent: number;
  now: number;
  items: readonly ContextItem[];
  /** The prompt relevance is scored against (seed 004). */
  latestPrompt?: string;
  /** The latest prompts, newest first, for the `/compact` focus; the latest prompt alone when absent. */
  recentPrompts?: readonly string[];
  /** First prompt of a session: no history yet, so recency is 10 and frequency 0 for everything. */
  firstPrompt?: boolean;
  /** The session was compacted: accesses count since the last compaction, and the words say so. */
  compacted?: boolean;
  /** What a compaction frees (the conversation's tokens); the listed drops' sum when absent. */
  conversationTokens?: number;
  /** Context usage over time (percent), for the rapid-growth warning. */
  usageHistory?: ReadonlyArray<{ at: number; percent: number }>;
  /** Item ids never to recommend (pinned, or dismissed until they change). */
  excluded?: ReadonlySet<string>;
}

export interface Advice extends AdviceFields<Phase> {
  percent: number;
  scored: ScoredItem[];
  /** The current task, for the `/compact` focus text. */
  focus: TaskFocus;
}

export const MAX_RECOMMENDATIONS = 5;
const RAPID_GROWTH_POINTS = 20;
const RAPID_GROWTH_WINDOW_MS = 5 * 60_000;

export function scoreItems(
  input: Pick<AdviceInput, 'items' | 'now' | 'latestPrompt' | 'firstPrompt'>,
): ScoredItem[] {
  const keywords = promptKeywords(input.latestPrompt ?? '');
  return input.items.map((item) => {
    const tiers = {
      ...(input.firstPrompt
        ? FIRST_PROMPT_TIERS
        : { recency: recencyTier(input.now - item.lastAccessAt), frequency: frequencyTier(item.accesses) }),
      relevance: relevanceTier(itemTags(item.name, item.tags), keywords),
    };
    const recency = tiers.recency.points;
    const frequency = tiers.frequency.points;
    const relevance = tiers.relevance.points;
    const score = recency + frequency + relevance;
    return { ...item, recency, frequency, relevance, score, band: band(score), tiers };
  });
}

const ACTIONS: Record<ContextItemType, RecommendationAction> = {
  file: 'closeFile',
  mcp_server: 'disableServer',
  skill: 'compact',
  subagent: 'compact',
  // A tool's output leaves the context only with a compaction.
  tool_result: 'compact',
};

/** Which scored items a phase recommends, lowest score first, before the cap of five. */
function candidates(
  phase: Phase,
  sorted: ScoredItem[],
): Array<{ item: ScoredItem; priority: Recommendation['priority'] }> {
  switch (phase) {
    case 'silent':
      return [];
    case 'identify':
      return sorted
        .slice(0, Math.ceil(sorted.length / 4))
        .map((item) => ({ item, priority: item.band === 'prune' ? 'HIGH' : 'MED' }));
    case 'aggressive':
      return sorted
        .filter((item) => item.score <= 15)
        .map((item) => ({ item, priority: item.score < 10 ? 'HIGH' : 'MED' }));
    case 'critical':
    case 'compact':
      return sorted
        .filter((item) => item.score < 16)
        .map((item) => ({ item, priority: item.score < 10 ? 'HIGH' : 'MED' }));
  }
}

function rapidGrowth(history: AdviceInput['usageHistory'], now: number, percent: number): number {
  const recent = (history ?? []).filter((point) => now - point.at <= RAPID_GROWTH_WINDOW_MS);
  if (recent.length === 0) return 0;
  return percent - Math.min(...recent.map((point) => point.percent));
}

function recommend(item: ScoredItem, priority: Recommendation['priority'], words: ItemWords): Recommendation {
  return {
    itemId: item.id,
    item: displayName(item, words.now),
    type: item.type,
    score: item.score,
    savingTokens: item.tokens,
    savingMeasured: item.measured,
    savingDetail: item.detail ?? '',
    priority,
    reason: reason(item, words),
    explanation: explanation(item),
    action: ACTIONS[item.type],
  };
}

/** At 95% the seed says compact first: the conversation goes, a summary of it stays. */
function compactFirst(drops: Recommendation[], conversationTokens: number | undefined): Recommendation {
  const listed = drops.reduce((sum, rec) => sum + rec.savingTokens, 0);
  return {
    itemId: 'session:compact',
    item: 'the conversation',
    type: 'session',
    score: null,
    savingTokens: conversationTokens ?? listed,
    // A compaction keeps a summary whose size is known only afterwards.
    savingMeasured: false,
    savingDetail:
      conversationTokens === undefined
        ? 'the items listed below'
        : 'the conversation, less the summary that replaces it',
    priority: 'HIGH',
    reason: 'The context is 95% full or more: compact first, keeping what matters now.',
    explanation: 'Not scored: at 95% or more, compaction comes before any single drop.',
    action: 'compact',
  };
}

export function advise(input: AdviceInput): Advice {
  const phase = PHASES[usageLevel(input.percent)];
  const scored = scoreItems(input);
  const focus = taskFocus(
    input.recentPrompts ?? (input.latestPrompt ? [input.latestPrompt] : []),
    input.items,
  );
  const warnings: string[] = [];
  const growth = rapidGrowth(input.usageHistory, input.now, input.percent);
  if (growth > RAPID_GROWTH_POINTS) {
    warnings.push(
      `Rapid context growth: +${Math.round(growth)} points in 5 minutes. Review the recent tool calls.`,
    );
  }
  if (phase === 'critical' || phase === 'compact')
    warnings.push('Context critical: manual intervention needed.');
  const advice = { percent: input.percent, phase, warnings, scored, focus };
  if (phase === 'silent') return { ...advice, recommendations: [], totalSavingTokens: 0 };

  const eligible = scored
    .filter((item) => !input.excluded?.has(item.id))
    .sort((a, b) => a.score - b.score || b.tokens - a.tokens);
  const words: ItemWords = { now: input.now, compacted: input.compacted ?? false };
  const recommendations = candidates(phase, eligible).map(({ item, priority }) =>
    recommend(item, priority, words),
  );
  if (phase === 'compact') recommendations.unshift(compactFirst(recommendations, input.conversationTokens));
  if (recommendations.length === 0) {
    warnings.push(
      'Everything in context scores as relevant: consider compacting away old decisions instead.',
    );
  }
  const top = recommendations.slice(0, MAX_RECOMMENDATIONS);
  const totalSavingTokens = top
    .filter((rec) => rec.type !== 'session')
    .reduce((sum, rec) => sum + rec.savingTokens, 0);
  return { ...advice, recommendations: top, totalSavingTokens };
}
