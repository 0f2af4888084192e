/**
 * When one project's derived views (derivedViews.ts) are brought up to date, decided here for whoever runs
 * the engine over time (the extension host): after an ingest the registry and the fold at once, the ranking
 * at most every RANK_THROTTLE_MS (and every RERANK_INTERVAL_MS, as recency moves), the next session's
 * context after a quiet moment (and every CONTEXT_INTERVAL_MS). The runner passes its timers, its queue
 * (database work one task at a time) and its pause between steps; it receives view-ready state. The CLI and
 * the catch-up process run the same pipeline at once (`afterIngest` with `runAtOnce`).
 */
import type { DiscoveryResult } from '../registry/discovery';
import type { RankedTool } from '../registry/ranking';
import type { SessionContext } from '../context/sessionContextText';
import { runInSteps } from '../kernel/steps';
import { yieldToHost } from '../kernel/yieldToHost';
import type { SelectionMode } from '../../shared/settings';
import type { RankingStrategy } from '../../shared/tools';
import {
  type AfterIngestResult,
  type DerivedViewName,
  type DerivedViewsProject,
  afterIngest,
} from './derivedViews';

/** A ranking costs 10-30 ms at a year of history: no more often than this however often calls arrive. */
export const RANK_THROTTLE_MS = 2000;
/** "Uses in 7 days" and the 30-day rule move with time even when nothing is called. */
export const RERANK_INTERVAL_MS = 10 * 60_000;
/** Ingests come in bursts while the agent works: the context is assembled after a quiet moment. */
export const CONTEXT_QUIET_MS = 1500;
/** Recency moves with time and the registry changes on its own: the context is assembled this often regardless. */
export const CONTEXT_INTERVAL_MS = 60_000;

/** The runner's clock and timers (the host's Date.now, setTimeout and setInterval; a test's clock). */
export interface ViewTimers {
  now(): number;
  after(run: () => void, ms: number): unknown;
  every(run: () => void, ms: number): unknown;
  cancel(handle: unknown): void;
}

/** What the views are computed with, read when they are. */
export interface ViewSettings {
  detailDays: number;
  mode: SelectionMode;
  strategy: RankingStrategy;
  hideBuiltins: boolean;
}

export interface ViewRunner {
  timers: ViewTimers;
  /** Runs database work one task at a time (the project's queue). */
  queue<T>(task: () => Promise<T>): Promise<T>;
  /** Between two steps; by default a turn for whatever waits on the thread. */
  pause?: () => Promise<void>;
  settings(): ViewSettings;
  /** A new ranking, whether or not it changed, and the settings it was made with. */
  ranked(tools: RankedTool[], settings: ViewSettings): void;
  /** What the next session receives, assembled again. */
  context(context: SessionContext): void;
  /** New calls the registry read, and the tools they added, demoted or recovered. */
  discovered?(found: DiscoveryResult): void;
  failed(view: DerivedViewName, error: unknown): void;
}

export class ViewScheduler {
  private rankTimer: unknown;
  private contextTimer: unknown;
  private readonly intervals: unknown[];
  private lastRankAt = 0;
  /** A ranking waits in the queue: another request joins it. */
  private rankQueued = false;
  private disposed = false;

  constructor(
    private readonly engine: DerivedViewsProject,
    private readonly runner: ViewRunner,
  ) {
    const { timers } = runner;
    this.intervals = [
      timers.every(() => this.rankSoon(), RERANK_INTERVAL_MS),
      timers.every(() => this.contextSoon(0), CONTEXT_INTERVAL_MS),
    ];
    this.contextSoon(0);
  }

  /**
   * After an ingest, a rebuild or an import, inside the queue: the registry reads the new calls and older
   * detail is folded, in steps; the ranking and the context follow on their own timers. `newHistory`: older
   * detail may have come in (a catch-up, an import), fold even if the window did not move. `changed`: false
   * when the ingest found nothing new (the context is then not assembled again for it).
   */
  async afterIngest(options: { newHistory?: boolean; changed?: boolean } = {}): Promise<AfterIngestResult> {
    const settings = this.runner.settings();
    const result = await this.run(['registry', 'history'], { newHistory: options.newHistory }, settings);
    if (result.discovered.calls > 0) {
      this.runner.discovered?.(result.discovered);
      this.rankSoon();
    }
    if (options.changed !== false || options.newHistory) this.contextSoon();
    return result;
  }

  /** Rank again soon: at most every RANK_THROTTLE_MS; `now` skips the wait (a setting changed). */
  rankSoon(now = false): void {
    if (this.disposed || this.rankTimer !== undefined || this.rankQueued) return;
    const wait = now ? 0 : Math.max(0, this.lastRankAt + RANK_THROTTLE_MS - this.runner.timers.now());
    this.rankTimer = this.runner.timers.after(() => {
      this.rankTimer = undefined;
      this.rankQueued = true;
      void this.runner.queue(async () => {
        this.rankQueued = false;
        await this.rankInQueue();
      });
    }, wait);
  }

  /** Inside the queue (a rescan of the config): read the new calls into the registry, then rank now. */
  async rankInQueue(): Promise<void> {
    if (this.disposed) return;
    const settings = this.runner.settings();
    const result = await this.run(['registry', 'ranking'], {}, settings);
    this.lastRankAt = this.runner.timers.now();
    if (result.discovered.calls > 0) this.runner.discovered?.(result.discovered);
    if (result.ranked && !this.disposed) this.runner.ranked(result.ranked, settings);
  }

  /** Assemble the next session's context after a quiet moment (ingests come in bursts). */
  contextSoon(delayMs = CONTEXT_QUIET_MS): void {
    if (this.disposed) return;
    this.runner.timers.cancel(this.contextTimer);
    this.contextTimer = this.runner.timers.after(() => {
      this.contextTimer = undefined;
      void this.contextNow();
    }, delayMs);
  }

  /** Assemble it now, a query per step (the writer also writes the file the recorder prints). */
  async contextNow(): Promise<SessionContext | undefined> {
    if (this.disposed) return undefined;
    const { context } = await this.run(['context'], {}, this.runner.settings());
    if (context && !this.disposed) this.runner.context(context);
    return context;
  }

  private async run(
    views: readonly DerivedViewName[],
    options: { newHistory?: boolean },
    settings: ViewSettings,
  ): Promise<AfterIngestResult> {
    try {
      return await runInSteps(
        afterIngest(this.engine, {
          views,
          newHistory: options.newHistory,
          detailDays: settings.detailDays,
          mode: settings.mode,
          ranking: { strategy: settings.strategy, hideBuiltins: settings.hideBuiltins },
          stopped: () => this.disposed,
        }),
        this.runner.pause ?? yieldToHost,
      );
    } catch (error) {
      this.runner.failed(views[views.length - 1], error);
      return { discovered: { calls: 0, added: [], demoted: [], recovered: [], more: false }, folded: 0 };
    }
  }

  dispose(): void {
    this.disposed = true;
    const { timers } = this.runner;
    timers.cancel(this.rankTimer);
    timers.cancel(this.contextTimer);
    for (const interval of this.intervals) timers.cancel(interval);
  }
}
