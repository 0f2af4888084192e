/**
 * The pruning advisor (seed 004): scores what sits in the agent's context and, once the window fills up,
 * says what to drop first, with the tokens each drop saves and an action that does it.
 */
import { type UsageLevel, usageLevel } from '../usageLevel';
import { itemTags, promptKeywords } from './keywords';
import { type Band, band, frequencyPoints, recencyPoints, relevancePoints } from './scoring';

export type ContextItemType = 'file' | 'skill' | 'subagent' | 'mcp_server';

export interface ContextItem {
  /** Stable across refreshes, e.g. `file:/repo/src/api.ts`; pins and dismissals refer to it. */
  id: string;
  type: ContextItemType;
  /** A path for files, a name otherwise. */
  name: string;
  tags?: string[];
  /** Accesses this session. */
  accesses: number;
  lastAccessAt: number;
  /** Estimated tokens it occupies; null when unknown. */
  estimatedTokens: number | null;
}

export interface ScoredItem extends ContextItem {
  recency: number;
  frequency: number;
  relevance: number;
  score: number;
  band: Band;
}

/** What the primary action of a recommendation does. */
export type RecommendationAction = 'compact' | 'closeFile' | 'disableServer';

export interface Recommendation {
  itemId: string;
  item: string;
  type: ContextItemType | 'session';
  score: number | null;
  savingTokens: number | null;
  priority: 'HIGH' | 'MED';
  reason: string;
  action: RecommendationAction;
}

/** silent < 70%, identify 70-80, aggressive 80-90, critical 90-95, compact >= 95. */
export type Phase = 'silent' | 'identify' | 'aggressive' | 'critical' | 'compact';

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
  latestPrompt?: string;
  /** First prompt of a session: no history yet, so recency is 10 and frequency 0 for everything. */
  firstPrompt?: boolean;
  /** Context usage over time (percent), for the rapid-growth warning. */
  usageHistory?: ReadonlyArray<{ at: number; percent: number }>;
  /** Item ids never to recommend (pinned, or dismissed until they change). */
  excluded?: ReadonlySet<string>;
}

export interface Advice {
  percent: number;
  phase: Phase;
  warnings: string[];
  recommendations: Recommendation[];
  totalSavingTokens: number;
  scored: ScoredItem[];
}

export const MAX_RECOMMENDATIONS = 5;
const RAPID_GROWTH_POINTS = 20;
const RAPID_GROWTH_WINDOW_MS = 5 * 60_000;

export function scoreItems(
  input: Pick<AdviceInput, 'items' | 'now' | 'latestPrompt' | 'firstPrompt'>,
): ScoredItem[] {
  const keywords = promptKeywords(input.latestPrompt ?? '');
  return input.items.map((item) => {
    const recency = input.firstPrompt ? 10 : recencyPoints(input.now - item.lastAccessAt);
    const frequency = input.firstPrompt ? 0 : frequencyPoints(item.accesses);
    const relevance = relevancePoints(itemTags(item.name, item.tags), keywords);
    const score = recency + frequency + relevance;
    return { ...item, recency, frequency, relevance, score, band: band(score) };
  });
}

function ageText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'used just now';
  if (minutes < 60) return `last used ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return `last used ${hours} h ago`;
}

function reasonFor(item: ScoredItem, now: number, firstPrompt: boolean): string {
  const relevance =
    item.relevance === 0
      ? 'unrelated to the latest prompt'
      : item.relevance >= 8
        ? 'related to the latest prompt'
        : 'barely related to the latest prompt';
  if (item.accesses === 0) return `in context since the session began, never used, ${relevance}`;
  const parts = [
    firstPrompt ? 'loaded before this session’s first prompt' : ageText(now - item.lastAccessAt),
    item.accesses === 1 ? 'used once' : `used ${item.accesses}×`,
    relevance,
  ];
  return parts.join(', ');
}

const ACTIONS: Record<ContextItemType, RecommendationAction> = {
  file: 'closeFile',
  mcp_server: 'disableServer',
  skill: 'compact',
  subagent: 'compact',
};

/** Which scored items a phase recommends, lowest score first, before the cap of five. */
function candidates(
  phase: Phase,
  sorted: ScoredItem[],
): Array<{ item: ScoredItem; priority: 'HIGH' | 'MED' }> {
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

export function advise(input: AdviceInput): Advice {
  const phase = PHASES[usageLevel(input.percent)];
  const scored = scoreItems(input);
  const warnings: string[] = [];
  const growth = rapidGrowth(input.usageHistory, input.now, input.percent);
  if (growth > RAPID_GROWTH_POINTS) {
    warnings.push(
      `Rapid context growth: +${Math.round(growth)} points in 5 minutes. Review the recent tool calls.`,
    );
  }
  if (phase === 'critical' || phase === 'compact')
    warnings.push('Context critical: manual intervention needed.');
  if (phase === 'silent')
    return { percent: input.percent, phase, warnings, recommendations: [], totalSavingTokens: 0, scored };

  const eligible = scored
    .filter((item) => !input.excluded?.has(item.id))
    .sort((a, b) => a.score - b.score || (b.estimatedTokens ?? 0) - (a.estimatedTokens ?? 0));
  const recommendations: Recommendation[] = candidates(phase, eligible).map(({ item, priority }) => ({
    itemId: item.id,
    item: item.name,
    type: item.type,
    score: item.score,
    savingTokens: item.estimatedTokens,
    priority,
    reason: reasonFor(item, input.now, input.firstPrompt ?? false),
    action: ACTIONS[item.type],
  }));
  if (phase === 'compact') {
    const drops = recommendations.reduce((sum, rec) => sum + (rec.savingTokens ?? 0), 0);
    recommendations.unshift({
      itemId: 'session:compact',
      item: 'the conversation',
      type: 'session',
      score: null,
      savingTokens: drops || null,
      priority: 'HIGH',
      reason: 'The context is 95% full or more: compact first, keeping what matters now.',
      action: 'compact',
    });
  }
  if (recommendations.length === 0) {
    warnings.push(
      'Everything in context scores as relevant: consider compacting away old decisions instead.',
    );
  }
  const top = recommendations.slice(0, MAX_RECOMMENDATIONS);
  const totalSavingTokens = top
    .filter((rec) => rec.type !== 'session')
    .reduce((sum, rec) => sum + (rec.savingTokens ?? 0), 0);
  return { percent: input.percent, phase, warnings, recommendations: top, totalSavingTokens, scored };
}

function shortName(item: { type: string; name: string }): string {
  return item.type === 'file' ? (item.name.split(/[\\/]/).pop() ?? item.name) : item.name;
}

/** `/compact` with focus instructions: what to keep (the best-scored items) and what to drop. */
export function compactCommand(advice: Pick<Advice, 'scored' | 'recommendations'>): string {
  const dropIds = new Set(advice.recommendations.map((rec) => rec.itemId));
  const keep = [...advice.scored]
    .filter((item) => !dropIds.has(item.id))
    .sort((a, b) => b.score - a.score)
    .slice(0, 4)
    .map(shortName);
  const drop = advice.recommendations
    .filter((rec) => rec.type !== 'session')
    .map((rec) => shortName({ type: rec.type, name: rec.item }));
  const parts = ['/compact'];
  if (keep.length) parts.push(`Keep what matters for the current task: ${keep.join(', ')}.`);
  if (drop.length) parts.push(`Drop the details of: ${drop.join(', ')}.`);
  if (!keep.length && !drop.length)
    parts.push('Keep the current task, its decisions and open problems; drop the rest.');
  return parts.join(' ');
}
