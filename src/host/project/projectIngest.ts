/**
 * Reading one project's event log as it grows: small backlogs on the extension host in chunks, large ones and
 * rebuilds in the catch-up process; then the views that follow an ingest (tools, gauge, next session's
 * context) and the fold of old history. Everything runs in the project's queue.
 */
import * as vscode from 'vscode';
import { bundledScript, FOLD_EVERY_BYTES, type ProjectEngine, type ActivityTypes } from '../../engine';
import { formatBytes } from '../../shared/formatBytes';
import type { IngestCounts, IngestProgress } from '../../shared/ingest';
import type { Log } from '../editor/log';
import { longestPause } from '../editor/pauseWatch';
import type { LiveGauge } from './liveGauge';
import type { ProjectTools } from './projectTools';
import { currentSettings } from '../editor/settings';

/** A backlog above this size gets a cancellable progress notification; smaller ones are read silently. */
const LARGE_BACKLOG_BYTES = 5 * 1024 * 1024;
/**
 * The extension host is shared with every other extension and with typing: a backlog is read in chunks small
 * enough that writing one into the database takes 10 to 30 ms (128 KiB, about 200 events), and the host
 * gets a turn to run whatever waits between two chunks.
 */
const HOST_CHUNK_BYTES = 128 * 1024;
/**
 * A backlog above this size (about 6,000 events) is read in the catch-up process, and so is a rebuild: the
 * extension host only reads back the database that process saved (engine/project/catchUp.ts).
 */
const CATCH_UP_BACKLOG_BYTES = 1024 * 1024;
/**
 * The catch-up process's script ships beside the bundle; running from source there is none and all is read
 * (and imported) here.
 */
export const catchUpScript = bundledScript('catchUpProcess.js');
/** During a catch-up on this thread, old detail is folded as often as the CLI and the catch-up process fold it. */
const FOLD_EVERY_CHUNKS = FOLD_EVERY_BYTES / HOST_CHUNK_BYTES;
/**
 * After a catch-up every view reads the new database (tools ranked, the next session's context, counts):
 * the host's longest pause over this long after it is logged too.
 */
const AFTER_CATCH_UP_MS = 5000;

/** What an ingest needs of its LiveProject: the engine, the queue, and the views it brings up to date. */
interface IngestHost {
  readonly engine: ProjectEngine;
  readonly name: string;
  readonly tools: Pick<ProjectTools, 'beforeViews'>;
  readonly gauge: Pick<LiveGauge, 'sessionsChanged'>;
  readonly views: Pick<ActivityTypes.ViewScheduler, 'afterIngest' | 'rankSoon'>;
  exclusive<T>(job: () => Promise<T>): Promise<T>;
  notify(): void;
  showNewWarnings(): void;
}

export class ProjectIngest {
  private queuedIngest: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private afterCatchUpTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** Bytes read so far of the ingest in progress, for the dashboard's progress bar. */
  progress: IngestProgress | null = null;
  /** The figures of the database the catch-up process is writing, while it runs. */
  catchUpCounts: IngestCounts | undefined;

  constructor(
    private readonly host: IngestHost,
    private readonly log: Log,
  ) {}

  /** Read whatever is new in the event log. Never rejects: failures are logged. */
  request(): Promise<void> {
    if (this.host.engine.role !== 'writer' || this.disposed) return Promise.resolve();
    if (this.queuedIngest) return this.queuedIngest;
    const task = this.host
      .exclusive(async () => {
        this.queuedIngest = undefined;
        await this.ingestOnce();
      })
      .catch((error: unknown) => this.log.error(`ingest of ${this.host.name} failed`, error));
    this.queuedIngest = task;
    return task;
  }

  private async ingestOnce(): Promise<void> {
    if (this.disposed || this.host.engine.role !== 'writer') return;
    const pending = this.host.engine.pendingBytes();
    if (pending > LARGE_BACKLOG_BYTES) {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Context Deck: reading ${formatBytes(pending)} of agent activity for ${this.host.name}`,
          cancellable: true,
        },
        (report, token) => this.runIngest('ingest', report, token, true),
      );
    } else {
      await this.runIngest('ingest', undefined, undefined, pending > CATCH_UP_BACKLOG_BYTES);
    }
  }

  /** Throw the database away and read the whole log again (writer only). */
  rebuild(
    report?: vscode.Progress<{ message?: string; increment?: number }>,
    token?: vscode.CancellationToken,
  ) {
    return this.host.exclusive(() => this.runIngest('rebuild', report, token, true));
  }

  private async runIngest(
    kind: 'ingest' | 'rebuild',
    report?: vscode.Progress<{ message?: string; increment?: number }>,
    token?: vscode.CancellationToken,
    large = false,
  ): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const cancel = token?.onCancellationRequested(() => abort.abort());
    let reportedPercent = 0;
    const started = Date.now();
    // The extension host's longest pause while this runs (ours or another extension's): typing waits that long.
    const pauses = longestPause();
    // An ingest that found nothing new changes nothing on screen: the idle poll must not redraw.
    let changed = kind === 'rebuild';
    let chunks = 0;
    let folded = 0;
    let inProcess: ActivityTypes.CatchUpResult | undefined;
    try {
      const options = {
        signal: abort.signal,
        chunkBytes: HOST_CHUNK_BYTES,
        afterChunk: async () => {
          // A long catch-up folds old detail as it goes, so the database never holds all of it at once.
          if (++chunks % FOLD_EVERY_CHUNKS === 0) folded += await this.foldOldHistory(true, false);
        },
        onProgress: (progress: IngestProgress) => {
          changed = true;
          this.progress = progress.doneBytes < progress.totalBytes ? { ...progress } : null;
          if (report && progress.totalBytes > 0) {
            const percent = Math.floor((100 * progress.doneBytes) / progress.totalBytes);
            report.report({
              increment: percent - reportedPercent,
              message: `${percent}% (${formatBytes(progress.doneBytes)} of ${formatBytes(progress.totalBytes)})`,
            });
            reportedPercent = percent;
          }
          // Counts grow chunk by chunk during a long catch-up; let the dashboard follow.
          this.host.notify();
        },
      };
      const readHere = () =>
        kind === 'rebuild' ? this.host.engine.rebuild(options) : this.host.engine.ingest(options);
      let result: ActivityTypes.IngestResult & { transcriptFilesImported?: number };
      if (large && catchUpScript) {
        try {
          const caughtUp = await this.host.engine.catchUp(catchUpScript, {
            rebuild: kind === 'rebuild',
            detailDays: detailDays(),
            signal: abort.signal,
            onProgress: (progress, counts) => {
              this.catchUpCounts = counts;
              options.onProgress(progress);
            },
          });
          result = caughtUp;
          folded += caughtUp.folded;
          inProcess = caughtUp;
          this.logPausesAfterCatchUp();
          // The catch-up found the tools in use: the registry here reads no new calls to rank by.
          this.host.views.rankSoon();
        } catch (error) {
          this.log.warn(
            `${this.host.name}: ${(error as Error).message}; reading on the extension host's thread`,
          );
          result = await readHere();
        } finally {
          this.catchUpCounts = undefined;
        }
      } else {
        result = await readHere();
      }
      if (result.bytes > 0 || result.rewritten.length > 0) changed = true;
      if (result.events > 0) this.host.gauge.sessionsChanged();
      // A follower's change arrives with new bytes; without any, its request waits for the next pass.
      if (result.bytes > 0) await this.host.engine.saveIfRequested();
      await this.host.tools.beforeViews(kind, result.events);
      folded += await this.foldOldHistory(
        !inProcess && (chunks >= FOLD_EVERY_CHUNKS || kind === 'rebuild'),
        false,
        result.events > 0 || kind === 'rebuild',
      );
      if (result.bytes > 0 || kind === 'rebuild') {
        const reimported =
          kind === 'rebuild'
            ? `, ${result.transcriptFilesImported ?? 0} transcript files imported again`
            : '';
        this.log.info(
          `${kind} ${this.host.name}: ${result.events} events, ${result.rejected} rejected, ${result.foreign} for other projects, ` +
            `${formatBytes(result.bytes)}${reimported}${folded > 0 ? `, ${folded} rows of older history folded` : ''} in ${Date.now() - started} ms${inProcess ? ` in the catch-up process (peak RSS ${formatBytes(inProcess.peakRssBytes)})` : ''}, longest extension host pause ${pauses.maxMs()} ms${abort.signal.aborted ? ' (cancelled)' : ''}; ${hostMemory()}`,
        );
      }
      for (const warning of result.rewritten) this.log.warn(warning);
    } catch (error) {
      changed = true;
      throw error;
    } finally {
      pauses.stop();
      cancel?.dispose();
      if (this.abort === abort) this.abort = undefined;
      this.progress = null;
      if (changed) this.host.notify();
      this.host.showNewWarnings();
    }
  }

  private logPausesAfterCatchUp(): void {
    const pauses = longestPause();
    clearTimeout(this.afterCatchUpTimer);
    this.afterCatchUpTimer = setTimeout(() => {
      pauses.stop();
      if (this.disposed) return;
      this.log.info(
        `${this.host.name}: in the ${AFTER_CATCH_UP_MS / 1000} s after the catch-up, as the views read the new database, longest extension host pause ${pauses.maxMs()} ms`,
      );
    }, AFTER_CATCH_UP_MS);
  }

  /**
   * Bring the derived views up to date in steps (engine/project/derivedViews.ts): the registry reads new
   * calls, then detail older than the `contextDeck.history.detailDays` window is folded; the ranking and
   * the next session's context follow when the engine's view scheduler says. `newHistory`: older detail may
   * have come in, look even if the window has not moved. `log`: say how many rows were folded (an ingest
   * says it in its own line). `changed`: rows came in (else the context is not assembled again for it).
   * Must run inside the queue. Never rejects: failures are logged. Returns the rows folded.
   */
  async foldOldHistory(newHistory = false, log = true, changed = true): Promise<number> {
    const { folded } = await this.host.views.afterIngest({ newHistory, changed });
    if (log && folded > 0)
      this.log.info(`${this.host.name}: ${folded} rows of history older than ${detailDays()} days folded`);
    return folded;
  }

  /** Stop any ingest in progress; the queue still runs what it holds, which now finds nothing to do. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.afterCatchUpTimer);
    this.abort?.abort();
  }
}

/** `contextDeck.history.detailDays`: how many days of history keep their detail. */
function detailDays(): number {
  return currentSettings()['history.detailDays'];
}

/** The extension host's memory (all extensions'): its JS heap, and buffers outside it (sql.js's database). */
function hostMemory(): string {
  const { heapUsed, external, rss } = process.memoryUsage();
  return `extension host heap ${formatBytes(heapUsed)}, buffers ${formatBytes(external)}, RSS ${formatBytes(rss)}`;
}
