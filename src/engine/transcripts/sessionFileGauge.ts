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
  readingForecast,
  windowKnown,
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
    private options: SessionGaugeOptions = {},
  ) {}

  configure(options: SessionGaugeOptions): void {
    this.options = { ...this.options, ...options };
  }

  /** Reads the file again when it changed (its items are keyed, so a whole read is as good as a tail). */
  async refresh(): Promise<boolean> {
    const stamp = sessionFileStamp(this.transcript);
    if (stamp === undefined || stamp.key === this.stamp) return false;
    this.stamp = stamp.key;
    const { items, skipped } = await this.files.read(this.transcript, {
      projectRoot: this.options.projectRoot,
    });
    this.items = items;
    this.malformed = skipped;
    return true;
  }

  reading(): GaugeReading {
    return gaugeOfItems(this.transcript, this.items, this.malformed, this.options);
  }
}

export interface SessionGaugeOptions extends Pick<ContextGaugeOptions, 'window' | 'modelHint'> {
  /** The session to follow in a file that holds several (opencode's database); default: its first. */
  sessionId?: string;
  projectRoot?: string;
}

/**
 * What tells that a session file changed: its size and time, and those of its write-ahead log (a database
 * in WAL mode, like opencode's, grows its `-wal` file while the main file stays as it was).
 */
export function sessionFileStamp(file: string): { key: string; size: number; mtimeMs: number } | undefined {
  let main: fs.Stats;
  try {
    main = fs.statSync(file);
  } catch {
    return undefined;
  }
  let size = main.size;
  let mtimeMs = main.mtimeMs;
  try {
    const wal = fs.statSync(`${file}-wal`);
    size += wal.size;
    mtimeMs = Math.max(mtimeMs, wal.mtimeMs);
  } catch {
    // No write-ahead log: the file alone.
  }
  return { key: `${size}:${mtimeMs}`, size, mtimeMs };
}

/**
 * The reading of one session of the file: the one asked for, else the first the file names (a fork names
 * its parent later).
 */
export function gaugeOfItems(
  transcript: string,
  items: readonly SessionItem[],
  malformed: number,
  options: SessionGaugeOptions = {},
): GaugeReading {
  const sessionId =
    (options.sessionId !== undefined && items.some((item) => item.sessionId === options.sessionId)
      ? options.sessionId
      : undefined) ??
    items.find((item) => item.type === 'session')?.sessionId ??
    items[0]?.sessionId;
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
  const reading = {
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
  return {
    ...reading,
    forecast: readingForecast(reading, windowKnown([options.modelHint, model], options.window ?? declared)),
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
