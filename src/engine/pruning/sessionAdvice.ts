/** Advice for a live session: its gauge reading, its measured breakdown, and the MCP servers it carries. */
import { userPromptText } from '../agents/userPrompt';
import type { GaugeReading } from '../live';
import { type AdviceState, excludedItems } from './adviceState';
import type { ContextItem } from '../live/contextItems';
import { type Advice, advise } from './advisor';
import { costedItems } from './costs';

export interface SessionAdviceOptions {
  now: number;
  /** Enabled MCP servers of the project: their tool names sit in context even when never called. */
  servers?: readonly string[];
  /** The user's pins and dismissals. */
  state?: AdviceState;
}

/** Earlier prompts, besides the latest, that say what the current task is. */
const TASK_PROMPTS = 3;

/**
 * When the current context began: the last compaction, else the earliest moment the reading knows of. Never
 * `now`'s neighbourhood or the oldest trend point alone (the trend keeps the last 200 responses): the age of
 * what was never used would then change while nobody acts.
 */
function contextStart(reading: GaugeReading, now: number): number {
  const compaction = reading.compactions.at(-1)?.at;
  if (compaction !== undefined && compaction !== null) return compaction;
  const known = [reading.trend[0]?.at, ...reading.breakdown.items.map((item) => item.at)].filter(
    (at): at is number => typeof at === 'number',
  );
  return known.length > 0 ? Math.min(...known) : now;
}

/** The latest prompt, then the newest ones the breakdown lists (by the start of their text). */
function recentPrompts(reading: GaugeReading): string[] {
  const listed = reading.breakdown.items
    // The breakdown lists every user line that fills the context; only what the user typed is a prompt.
    .filter((item) => item.kind === 'prompt' && userPromptText(item.label) !== undefined)
    .sort((a, b) => (b.at ?? 0) - (a.at ?? 0))
    .slice(0, TASK_PROMPTS)
    .map((item) => item.label);
  return [...(reading.latestPrompt ? [reading.latestPrompt] : []), ...listed];
}

export function adviseSession(reading: GaugeReading, options: SessionAdviceOptions): Advice {
  const { breakdown } = reading;
  const items = costedItems({
    tracked: reading.items,
    servers: options.servers ?? [],
    breakdown,
    since: contextStart(reading, options.now),
  });
  return advise({
    percent: reading.percent,
    now: options.now,
    items,
    latestPrompt: reading.latestPrompt ?? undefined,
    recentPrompts: recentPrompts(reading),
    firstPrompt: reading.prompts <= 1,
    compacted: reading.compactions.length > 0,
    conversationTokens: breakdown.categories.find((category) => category.name === 'messages')?.tokens,
    usageHistory: reading.trend.map((point) => ({
      at: point.at ?? options.now,
      percent: (100 * point.tokens) / reading.window,
    })),
    excluded: options.state
      ? excludedItems(
          options.state,
          items.map((item) => ({ id: item.id, key: dismissalKey(item) })),
        )
      : undefined,
  });
}

/** Identifies the state an item was dismissed in: a dismissal lasts until the item changes. */
export function dismissalKey(item: Pick<ContextItem, 'id' | 'accesses' | 'lastAccessAt'>): string {
  return `${item.id}@${item.accesses}:${item.lastAccessAt}`;
}
