import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { type Fingerprint, LineReader, fingerprint, stillHolds } from '../kernel/appendedLines';
import type { Compaction, ContextForecast, GaugeFields } from '../../shared/context';
import type { ContextItem } from './contextItems';
import { type DiskFacts, NO_DISK_FACTS } from '../agents/contextFiles';
import { cataloguedWindow, compactPoint, ownDisplay } from '../agents';
import type { TranscriptAdapter } from '../agents/adapter';
import type { ContextBreakdown } from './breakdownTypes';
import { BreakdownTracker } from './contextBreakdown';
import { ContextItemsTracker } from './contextItems';
import { forecastContext } from './contextForecast';
import { contextCommandWindow } from './contextCommandOutput';
import { type TranscriptEntry, contextTokens } from '../agents/transcriptEntry';

const DEFAULT_CONTEXT_WINDOW = 200_000;
const LARGE_CONTEXT_WINDOW = 1_000_000;
/** Trend points kept: one per API response, the most recent ones. */
const DEFAULT_TREND_POINTS = 200;
const READ_CHUNK_BYTES = 4 * 1024 * 1024;

export interface TrendPoint {
  at: number | null;
  tokens: number;
}

export interface GaugeReading extends GaugeFields {
  trend: TrendPoint[];
  malformed: number;
  /** What sits in the context since the session began or was last compacted. */
  items: ContextItem[];
  latestPrompt: string | null;
  /** Prompts since the session began or was last compacted: 1 means the first prompt. */
  prompts: number;
  /**
   * What fills the context, by category and item, adding up to `tokens`. The same object is returned until
   * the transcript changes: treat it as read-only.
   */
  breakdown: ContextBreakdown;
}

export interface ContextGaugeOptions {
  /** A window size that wins over what the model suggests (a user setting). */
  window?: number;
  /**
   * The model as the hooks or the status line name it (e.g. `claude-sonnet-4-5[1m]`): transcripts record
   * the API model id, which does not say whether the 1M-token window is on.
   */
  modelHint?: string;
  trendPoints?: number;
  /** The project whose memory files, skills and agents are in the context (default: the session's cwd). */
  projectRoot?: string;
  /**
   * The agent's data folder, for the user's memory files, skills and agents (default: the one holding the
   * transcript; a transcript kept elsewhere gets the project's files only).
   */
  transcriptsDir?: string;
}

/** What is known of a session's window, strongest first. */
export interface WindowFacts {
  /** The user's setting. */
  setting?: number;
  /** What the agent itself stated for the session (`/context`, a session file's declared window). */
  stated?: number;
  /** What the agent's model catalogue gives the session's model. */
  catalogued?: number;
}

export interface ContextWindow {
  size: number;
  /** Nothing said it: the size is the usual window of current models, shown as a guess. */
  guessed: boolean;
}

const positive = (value: number | undefined): value is number => value !== undefined && value > 0;

/**
 * The context window: the setting, else what the agent stated, else 1M for `[1m]` models, else the
 * agent's catalogue, else 1M once more than 200k tokens were seen (only the large window allows that),
 * else a guessed 200k.
 */
export function contextWindow(
  models: ReadonlyArray<string | null | undefined>,
  maxTokens: number,
  facts: WindowFacts = {},
): ContextWindow {
  if (positive(facts.setting)) return { size: facts.setting, guessed: false };
  if (positive(facts.stated)) return { size: facts.stated, guessed: false };
  if (models.some((model) => model?.toLowerCase().includes('[1m]')))
    return { size: LARGE_CONTEXT_WINDOW, guessed: false };
  if (positive(facts.catalogued))
    return {
      size: Math.max(facts.catalogued, maxTokens > facts.catalogued ? LARGE_CONTEXT_WINDOW : 0),
      guessed: false,
    };
  if (maxTokens > DEFAULT_CONTEXT_WINDOW) return { size: LARGE_CONTEXT_WINDOW, guessed: false };
  return { size: DEFAULT_CONTEXT_WINDOW, guessed: true };
}

/** The forecast of a reading: what it needs is all in the reading. */
export function readingForecast(reading: Omit<GaugeReading, 'forecast'>): ContextForecast {
  return forecastContext({
    trend: reading.trend,
    compactionTimes: reading.compactions.map((compaction) => compaction.at),
    compactedSinceUsage: reading.compactedSinceUsage,
    at: reading.breakdown.autocompactAt,
    window: reading.window,
    windowKnown: !reading.windowGuessed,
    prompts: reading.prompts,
    items: reading.breakdown.items,
  });
}

/**
 * How full one session's context window is, from its transcript. Each `refresh()` reads only the bytes
 * appended since the last one; a torn last line waits for its end; a truncated or replaced file is read
 * again from its start. Sidechain (subagent) lines in a session's transcript never move its gauge; a
 * subagent's own transcript is measured as the subagent's context.
 */
export class ContextGauge {
  private offset = 0;
  private mark: Fingerprint = { head: '', tail: '' };
  private sessionId: string | undefined;
  /**
   * A subagent's own transcript (its first message a sidechain's): its sidechain lines are the context it
   * measures. Undefined until the first message is read.
   */
  private subagentFile: boolean | undefined;
  private model: string | undefined;
  /** The window the session's latest `/context` output states. */
  private statedWindow: number | undefined;
  private tokens = 0;
  private maxTokens = 0;
  private updatedAt: number | undefined;
  private compactions: Compaction[] = [];
  private compactedSinceUsage = false;
  private trend: TrendPoint[] = [];
  /** The response key of each trend point, to count the lines of one response once. */
  private trendKeys: Array<string | undefined> = [];
  /** The keys of trendKeys, to look one up without comparing it with every point's. */
  private trendKeySet = new Set<string>();
  private malformed = 0;
  private items = new ContextItemsTracker();
  private breakdown = this.newBreakdown();
  private refreshing: Promise<boolean> = Promise.resolve(false);
  private readonly reader = new LineReader();

  constructor(
    readonly transcript: string,
    private readonly adapter: TranscriptAdapter,
    private options: ContextGaugeOptions = {},
  ) {}

  /** Change the window setting or the model hint; the next reading uses them. */
  configure(options: Pick<ContextGaugeOptions, 'window' | 'modelHint'>): void {
    this.options = { ...this.options, ...options };
  }

  /** Read what was appended since the last call; resolves to whether anything was read. */
  refresh(): Promise<boolean> {
    // Calls are queued so that two reads never interleave over the same offset.
    this.refreshing = this.refreshing.then(
      () => this.readAppended(),
      () => this.readAppended(),
    );
    return this.refreshing;
  }

  reading(): GaugeReading {
    const models = [this.options.modelHint, this.model];
    const { size: window, guessed } = contextWindow(models, this.maxTokens, {
      setting: this.options.window,
      stated: this.statedWindow,
      // The session's own model, once recorded: the hint may be another session's.
      catalogued: cataloguedWindow(this.adapter, [this.model ?? this.options.modelHint]),
    });
    const reading = {
      transcript: this.transcript,
      sessionId: this.sessionId ?? null,
      model: this.model ?? null,
      tokens: this.tokens,
      window,
      windowGuessed: guessed,
      percent: Math.round((this.tokens / window) * 1000) / 10,
      compactions: [...this.compactions],
      compactedSinceUsage: this.compactedSinceUsage,
      trend: [...this.trend],
      updatedAt: this.updatedAt ?? null,
      malformed: this.malformed,
      items: this.items.list(),
      latestPrompt: this.items.prompts.latest ?? null,
      prompts: this.items.prompts.count,
      breakdown: this.breakdown.breakdown(this.tokens, window, compactPoint(this.adapter, window, models)),
      ownDisplay: ownDisplay(this.adapter, this.tokens, window),
    };
    return { ...reading, forecast: readingForecast(reading) };
  }

  /** A tracker that reads the session's files on disk once, when its first API call is counted. */
  private newBreakdown(): BreakdownTracker {
    return new BreakdownTracker(
      (cwd) => this.diskFacts(cwd),
      (entry) => this.adapter.transcripts.promptOf(entry),
    );
  }

  private diskFacts(cwd: string | undefined): DiskFacts {
    const projectRoot = this.options.projectRoot ?? cwd;
    if (!projectRoot) return NO_DISK_FACTS;
    try {
      return this.adapter.transcripts.contextFiles(projectRoot, this.transcript, this.options.transcriptsDir);
    } catch {
      // Unreadable config: the fixed overhead is then all system prompt and tools.
      return NO_DISK_FACTS;
    }
  }

  private async readAppended(): Promise<boolean> {
    let handle: FileHandle;
    try {
      handle = await fs.promises.open(this.transcript, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      let changed = false;
      if (this.offset > 0 && !(await stillHolds(handle, size, this.offset, this.mark))) {
        this.reset();
        changed = true;
      }
      for (;;) {
        const chunk = await this.reader.read(handle, this.offset, READ_CHUNK_BYTES);
        if (!chunk) break;
        if (chunk.kind === 'oversized') this.malformed++;
        else for (const line of chunk.lines) if (line.trim() !== '') this.addLine(line);
        this.offset += chunk.length;
        changed = true;
      }
      if (changed) this.mark = await fingerprint(handle, this.offset);
      return changed;
    } finally {
      await handle.close();
    }
  }

  private reset(): void {
    this.offset = 0;
    this.sessionId = undefined;
    this.subagentFile = undefined;
    this.model = undefined;
    this.statedWindow = undefined;
    this.tokens = 0;
    this.maxTokens = 0;
    this.updatedAt = undefined;
    this.compactions = [];
    this.compactedSinceUsage = false;
    this.trend = [];
    this.trendKeys = [];
    this.trendKeySet = new Set();
    this.malformed = 0;
    this.items = new ContextItemsTracker();
    this.breakdown = this.newBreakdown();
  }

  private addLine(line: string): void {
    const parsed = this.adapter.transcripts.parseLine(line);
    if (!parsed.ok) {
      this.malformed++;
      return;
    }
    const entry = parsed.entry;
    if (entry.type === 'user' || entry.type === 'assistant') this.subagentFile ??= entry.sidechain;
    if (entry.sidechain && !this.subagentFile) return;
    this.breakdown.add(entry);
    this.sessionId = entry.sessionId ?? this.sessionId;
    if (entry.type === 'system' && entry.systemText)
      this.statedWindow = contextCommandWindow(entry.systemText) ?? this.statedWindow;
    if (entry.type === 'system' && entry.subtype === 'compact_boundary') {
      this.compactions.push({ at: entry.at ?? null, preTokens: entry.preTokens ?? null });
      this.compactedSinceUsage = true;
      this.items.compaction();
      return;
    }
    if (entry.usage && entry.type !== 'user') this.addUsage(entry);
    for (const use of entry.toolUses) this.items.use(use);
    for (const result of entry.toolResults) this.items.result(result, entry.at ?? Date.now());
    const prompt = this.adapter.transcripts.promptOf(entry);
    if (prompt !== undefined) this.items.prompt(prompt);
  }

  private addUsage(entry: TranscriptEntry): void {
    const tokens = contextTokens(entry.usage!);
    // Messages Claude Code writes itself (API errors, `<synthetic>` model) report zero usage: not a reading.
    if (tokens === 0) return;
    this.tokens = tokens;
    this.maxTokens = Math.max(this.maxTokens, tokens);
    this.model = entry.model ?? this.model;
    this.updatedAt = entry.at ?? this.updatedAt;
    this.compactedSinceUsage = false;
    const key = entry.responseKey;
    if (key !== undefined && this.trendKeySet.has(key)) return;
    this.trend.push({ at: entry.at ?? null, tokens });
    this.trendKeys.push(key);
    if (key !== undefined) this.trendKeySet.add(key);
    const limit = this.options.trendPoints ?? DEFAULT_TREND_POINTS;
    if (this.trend.length > limit) {
      this.trend.splice(0, this.trend.length - limit);
      for (const gone of this.trendKeys.splice(0, this.trendKeys.length - limit))
        if (gone !== undefined) this.trendKeySet.delete(gone);
    }
  }
}
