/**
 * The gauge for agents other than Claude Code, from the usage their session files record (`SessionItem`s):
 * the context size after each turn, and the window where the file says it. Their files say how full the
 * context is, not what fills it, so the breakdown is one measured total, shown as the conversation.
 */
import * as fs from 'node:fs';
import type { SessionFiles, SessionItem } from '../agents/adapter';
import type { BreakdownCategory, ContextBreakdown } from './breakdownTypes';
import {
  type Compaction,
  type ContextGaugeOptions,
  type GaugeReading,
  type TrendPoint,
  contextWindow,
} from './contextGauge';

const TREND_POINTS = 200;

type Usage = Extract<SessionItem, { type: 'usage' }>;

/** The same surface as ContextGauge, so the host and the CLI follow either. */
export class SessionFileGauge {
  private stamp = '';
  private items: SessionItem[] = [];
  private malformed = 0;

  constructor(
    readonly transcript: string,
    private readonly files: SessionFiles,
    private options: Pick<ContextGaugeOptions, 'window' | 'modelHint'> = {},
  ) {}

  configure(options: Pick<ContextGaugeOptions, 'window' | 'modelHint'>): void {
    this.options = { ...this.options, ...options };
  }

  /** Reads the file again when it changed (its items are keyed, so a whole read is as good as a tail). */
  async refresh(): Promise<boolean> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(this.transcript);
    } catch {
      return false;
    }
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    if (stamp === this.stamp) return false;
    this.stamp = stamp;
    const { items, skipped } = this.files.read(this.transcript);
    this.items = items;
    this.malformed = skipped;
    return true;
  }

  reading(): GaugeReading {
    return gaugeOfItems(this.transcript, this.items, this.malformed, this.options);
  }
}

/** The reading of the file's main session: the first session it names (a fork names its parent later). */
export function gaugeOfItems(
  transcript: string,
  items: readonly SessionItem[],
  malformed: number,
  options: Pick<ContextGaugeOptions, 'window' | 'modelHint'> = {},
): GaugeReading {
  const sessionId = items.find((item) => item.type === 'session')?.sessionId ?? items[0]?.sessionId;
  const own = items.filter((item) => item.sessionId === sessionId);
  const usages = own.filter((item): item is Usage => item.type === 'usage');
  const last = usages[usages.length - 1];
  const tokens = last?.contextTokens ?? 0;
  const model =
    [...usages].reverse().find((usage) => usage.model)?.model ??
    own.flatMap((item) => (item.type === 'session' && item.model ? [item.model] : []))[0];
  const declared = last?.contextWindow;
  const window = contextWindow(
    [options.modelHint, model],
    Math.max(0, ...usages.map((usage) => usage.contextTokens)),
    options.window ?? declared,
  );
  const compactions: Compaction[] = [];
  let prompts = 0;
  let latestPrompt: string | null = null;
  let before: number | null = null;
  let compactedSinceUsage = false;
  for (const item of own) {
    if (item.type === 'usage') {
      before = item.contextTokens;
      compactedSinceUsage = false;
    } else if (item.type === 'compact') {
      compactions.push({ at: item.at, preTokens: before });
      compactedSinceUsage = true;
      prompts = 0;
    } else if (item.type === 'prompt') {
      prompts++;
      latestPrompt = item.text;
    }
  }
  const trend: TrendPoint[] = usages.slice(-TREND_POINTS).map((usage) => ({
    at: usage.at,
    tokens: usage.contextTokens,
  }));
  return {
    transcript,
    sessionId: sessionId ?? null,
    model: model ?? null,
    tokens,
    window,
    percent: Math.round((tokens / window) * 1000) / 10,
    compactions,
    compactedSinceUsage,
    trend,
    updatedAt: last?.at ?? null,
    malformed,
    items: [],
    latestPrompt,
    prompts,
    breakdown: totalOnlyBreakdown(tokens, window, last !== undefined),
  };
}

function totalOnlyBreakdown(total: number, window: number, measured: boolean): ContextBreakdown {
  const categories: BreakdownCategory[] = [
    { name: 'messages', tokens: total, measured },
    { name: 'free_space', tokens: Math.max(0, window - total), measured },
    { name: 'autocompact_buffer', tokens: 0, measured: false },
  ];
  return {
    total,
    window,
    autocompactAt: window,
    categories,
    items: [],
    itemCount: 0,
    fromContextCommand: false,
  };
}
