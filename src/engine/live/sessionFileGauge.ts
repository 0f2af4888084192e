/**
 * The gauge for agents other than Claude Code, from the usage their session files record (`SessionItem`s):
 * the context size after each turn, and the window where the file says it. Their files say how full the
 * context is, and only in part what fills it: the breakdown's fixed part is what the first model call held
 * before the first prompt (estimated: the prompt is counted by its characters), split into the parts of the
 * prompt the file holds (Codex's base instructions and AGENTS.md) by their characters, the rest being the
 * tools; the conversation is the total less that.
 */
import { plausibleTokens } from '../agents/tokenCounts';
import type { SessionAdapter, SessionItem } from '../agents/adapter';
import { cataloguedWindow, compactPoint, ownDisplay } from '../agents';
import { sessionFileStamp } from '../agents/sessionBytes';
import { estimate } from './breakdownCompose';
import type { BreakdownCategory, Compaction } from '../../shared/context';
import type { ContextBreakdown } from './breakdownTypes';
import {
  type ContextGaugeOptions,
  type GaugeReading,
  type TrendPoint,
  contextWindow,
  readingForecast,
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
    private readonly adapter: SessionAdapter,
    private options: SessionGaugeOptions = {},
  ) {}

  configure(options: SessionGaugeOptions): void {
    // A store of many sessions is read for the one followed: another one is read afresh.
    if (options.sessionId !== undefined && options.sessionId !== this.options.sessionId) this.stamp = '';
    this.options = { ...this.options, ...options };
  }

  /** Reads the file again when it changed (its items are keyed, so a whole read is as good as a tail). */
  async refresh(): Promise<boolean> {
    const stamp = sessionFileStamp(this.transcript);
    if (stamp === undefined || stamp.key === this.stamp) return false;
    this.stamp = stamp.key;
    const { items, skipped } = await this.adapter.sessions.read(this.transcript, {
      projectRoot: this.options.projectRoot,
      sessionId: this.options.sessionId,
    });
    this.items = items;
    this.malformed = skipped;
    return true;
  }

  reading(): GaugeReading {
    return gaugeOfItems(this.transcript, this.items, this.malformed, {
      ...this.options,
      compactAt: (window, models) => compactPoint(this.adapter, window, models),
      windowOf: (models) => cataloguedWindow(this.adapter, models),
      ownDisplay: (tokens, window) => ownDisplay(this.adapter, tokens, window),
    });
  }
}

export interface SessionGaugeOptions extends Pick<ContextGaugeOptions, 'window' | 'modelHint'> {
  /** The session to follow in a file that holds several (opencode's database); default: its first. */
  sessionId?: string;
  projectRoot?: string;
}

interface ItemsGaugeOptions extends SessionGaugeOptions {
  /** Where the agent compacts a window, for the models the session names (default: at the window). */
  compactAt?: (window: number, models: ReadonlyArray<string | undefined>) => number;
  /** The window the agent's catalogue gives the first of the models it lists. */
  windowOf?: (models: ReadonlyArray<string | undefined>) => number | undefined;
  /** How the agent's own display puts it, where that differs (GaugeFields.ownDisplay). */
  ownDisplay?: (tokens: number, window: number) => GaugeReading['ownDisplay'];
}

/**
 * The reading of one session of the file: the one asked for, else the first the file names (a fork names
 * its parent later).
 */
export function gaugeOfItems(
  transcript: string,
  items: readonly SessionItem[],
  malformed: number,
  options: ItemsGaugeOptions = {},
): GaugeReading {
  const sessionId =
    (options.sessionId !== undefined && items.some((item) => item.sessionId === options.sessionId)
      ? options.sessionId
      : undefined) ??
    items.find((item) => item.type === 'session')?.sessionId ??
    items[0]?.sessionId;
  const ofSession = items.filter((item) => item.sessionId === sessionId);
  // A reading with an absurd count is a bad line: never shown, forecast or warned about.
  const own = ofSession.filter(
    (item) =>
      item.type !== 'usage' ||
      (plausibleTokens(item.contextTokens) &&
        (item.contextWindow === undefined || plausibleTokens(item.contextWindow))),
  );
  const rejected = ofSession.length - own.length;
  const usages = own.filter((item): item is Usage => item.type === 'usage');
  const last = usages[usages.length - 1];
  const tokens = last?.contextTokens ?? 0;
  const model =
    [...usages].reverse().find((usage) => usage.model)?.model ??
    own.flatMap((item) => (item.type === 'session' && item.model ? [item.model] : []))[0];
  const declared = last?.contextWindow;
  const { size: window, guessed } = contextWindow(
    [options.modelHint, model],
    Math.max(0, ...usages.map((usage) => usage.contextTokens)),
    {
      setting: options.window,
      stated: declared,
      catalogued: options.windowOf?.([model ?? options.modelHint]),
    },
  );
  // The file's own compact point holds for the window it declares, not for one the user set.
  const compactAt =
    options.window === undefined && last?.compactAt !== undefined
      ? last.compactAt
      : (options.compactAt?.(window, [options.modelHint, model]) ?? window);
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
  const reading = {
    transcript,
    sessionId: sessionId ?? null,
    model: model ?? null,
    tokens,
    window,
    windowGuessed: guessed,
    percent: Math.round((tokens / window) * 1000) / 10,
    ownDisplay: options.ownDisplay?.(tokens, window),
    compactions,
    compactedSinceUsage,
    trend,
    updatedAt: last?.at ?? null,
    malformed: malformed + rejected,
    items: [],
    latestPrompt,
    prompts,
    breakdown: sessionBreakdown(own, { total: tokens, window, compactAt }, last !== undefined),
  };
  return {
    ...reading,
    forecast: readingForecast(reading),
  };
}

type FixedPart = 'system_prompt' | 'memory_files';

/** What the first model call held besides the prompts before it: the session's fixed prompt. */
function fixedOverhead(items: readonly SessionItem[]): number | undefined {
  let promptChars = 0;
  for (const item of items) {
    if (item.type === 'prompt') promptChars += item.text.length;
    if (item.type === 'usage') return Math.max(0, item.contextTokens - estimate(promptChars));
  }
  return undefined;
}

/** The fixed prompt's parts the file holds, each counted once (a part repeated every turn is one). */
function fixedParts(items: readonly SessionItem[]): Map<FixedPart, number> {
  const seen = new Set<string>();
  const parts = new Map<FixedPart, number>();
  for (const item of items) {
    if (item.type !== 'context' || seen.has(item.key)) continue;
    seen.add(item.key);
    parts.set(item.category, (parts.get(item.category) ?? 0) + estimate(item.chars));
  }
  return parts;
}

/** `total` tokens used of `window`, where the agent compacts at `compactAt`. */
function sessionBreakdown(
  items: readonly SessionItem[],
  { total, window, compactAt }: { total: number; window: number; compactAt: number },
  measured: boolean,
): ContextBreakdown {
  const buffer = Math.min(Math.max(0, window - compactAt), window);
  const categories: BreakdownCategory[] = [];
  let fixed = Math.min(total, fixedOverhead(items) ?? 0);
  const overhead = fixed;
  const parts = fixedParts(items);
  for (const name of ['system_prompt', 'memory_files'] as const) {
    const tokens = Math.min(fixed, parts.get(name) ?? 0);
    if (tokens === 0) continue;
    categories.push({ name, tokens, measured: false });
    fixed -= tokens;
  }
  // The rest of the fixed prompt is the tools' schemas, where the file holds the instructions; else all of it.
  if (fixed > 0)
    categories.push({
      name: parts.size > 0 ? 'system_tools' : 'system_prompt',
      tokens: fixed,
      measured: false,
    });
  categories.push(
    { name: 'messages', tokens: total - overhead, measured: measured && overhead === 0 },
    { name: 'free_space', tokens: Math.max(0, window - total - buffer), measured },
    { name: 'autocompact_buffer', tokens: Math.min(buffer, Math.max(0, window - total)), measured: false },
  );
  return {
    total,
    window,
    autocompactAt: window - buffer,
    categories,
    items: [],
    itemCount: 0,
    fromContextCommand: false,
  };
}
