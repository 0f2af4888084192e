/** Advice for a live session: its gauge reading plus the MCP servers whose tool definitions it carries. */
import type { GaugeReading } from '../transcripts';
import { type AdviceState, excludedItems } from './adviceState';
import { type Advice, type ContextItem, advise } from './advisor';

export interface SessionAdviceOptions {
  now: number;
  /** Enabled MCP servers of the project: their tool definitions sit in context even when never called. */
  servers?: readonly string[];
  /** The user's pins and dismissals. */
  state?: AdviceState;
}

export function adviseSession(reading: GaugeReading, options: SessionAdviceOptions): Advice {
  const items: ContextItem[] = [...reading.items];
  const sessionStart = reading.trend[0]?.at ?? options.now;
  for (const server of options.servers ?? []) {
    const id = `mcp_server:${server}`;
    if (items.some((item) => item.id === id)) continue;
    // Never called: in context since the session began; the size of its definitions is unknown.
    items.push({
      id,
      type: 'mcp_server',
      name: server,
      accesses: 0,
      lastAccessAt: sessionStart,
      estimatedTokens: null,
    });
  }
  return advise({
    percent: reading.percent,
    now: options.now,
    items,
    latestPrompt: reading.latestPrompt ?? undefined,
    firstPrompt: reading.prompts <= 1,
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
