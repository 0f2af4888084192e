import * as vscode from 'vscode';
import {
  bundledScript,
  candidateTranscripts,
  claudeConfigDirs,
  findAgentSessionFiles,
  importTranscripts,
  type ProjectEngine,
  requestSave,
  saveIfRequested,
  type CatchUpResult,
  type IngestResult,
  type TranscriptImportResult,
} from '../../engine';
import type { IngestCounts, IngestProgress, ProjectView } from '../../shared/protocol';
import { LiveGauge } from './liveGauge';
import type { Log } from '../log';
import { NextSessionContext } from './nextSessionContext';
import { longestPause } from '../pauseWatch';
import { ProjectTools } from './projectTools';

/** Counting transcripts lists folders; the dashboard asks far more often than they change. */
const TRANSCRIPT_COUNT_TTL_MS = 10_000;

/** A backlog above this size gets a cancellable progress notification; smaller ones are read silently. */
export const LARGE_BACKLOG_BYTES = 5 * 1024 * 1024;
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
/** The catch-up process's script ships beside the bundle; running from source there is none and all is read here. */
const catchUpScript = bundledScript('catchUpProcess.js');
/** During a catch-up, old detail is folded every 8 MiB of log read (about 12,000 events). */
const FOLD_EVERY_CHUNKS = 64;
/**
 * After a catch-up every view reads the new database (tools ranked, the next session's context, counts):
 * the host's longest pause over this long after it is logged too.
 */
const AFTER_CATCH_UP_MS = 5000;
/** How long a follower waits for the writer's snapshot to show a change made here, and how often it looks. */
const WRITER_WAIT_MS = 5000;
const WRITER_POLL_MS = 150;
const WAITING_FOR_WRITER =
  'Another VS Code window on this project records the agent’s activity: your change shows here as soon as that window has saved it.';

/**
 * One open project: its engine plus the work that keeps it current. All database work for the project goes
 * through one queue, so two ingests (or an ingest and a rebuild) never run at once; ingest requests that
 * arrive while one is waiting share it.
 */
export class LiveProject {
  private tail: Promise<unknown> = Promise.resolve();
  private queuedIngest: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private shownWarnings = 0;
  private disposed = false;
  private afterCatchUpTimer: NodeJS.Timeout | undefined;
  private transcriptCount = { value: 0, at: 0 };
  /** Changes made here that this follower waits to see in the writer's snapshot. */
  private waitingForWriter = 0;
  /** Bytes read so far of the ingest in progress, for the dashboard's progress bar. */
  progress: IngestProgress | null = null;
  /** The figures of the database the catch-up process is writing, while it runs. */
  private catchUpCounts: IngestCounts | undefined;
  readonly gauge: LiveGauge;
  /** The tool registry: config scans, discovery from use, ranking for the dashboard. */
  readonly tools: ProjectTools;
  readonly nextContext: NextSessionContext;

  constructor(
    readonly engine: ProjectEngine,
    private readonly log: Log,
    private readonly notify: () => void,
  ) {
    this.gauge = new LiveGauge(engine, log, notify);
    this.tools = new ProjectTools(this, log, notify);
    this.nextContext = new NextSessionContext(engine, log, notify);
  }

  /** Agents' session files on disk (Claude Code transcripts, Codex rollouts...) that may belong to this project. */
  transcriptFiles(): number {
    if (Date.now() - this.transcriptCount.at > TRANSCRIPT_COUNT_TTL_MS) {
      const roots = this.engine.identity.roots;
      const value =
        claudeConfigDirs().reduce((sum, dir) => sum + candidateTranscripts(dir, roots).length, 0) +
        findAgentSessionFiles(roots).length;
      this.transcriptCount = { value, at: Date.now() };
    }
    return this.transcriptCount.value;
  }

  /** Import the agents' session files of this project, in the same queue as ingestion. */
  importHistory(
    report: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<TranscriptImportResult> {
    return this.exclusive(async () => {
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      let reported = 0;
      try {
        return await importTranscripts(this.engine, {
          signal: abort.signal,
          onProgress: ({ doneBytes, totalBytes, doneFiles, totalFiles }) => {
            const pct = totalBytes > 0 ? (100 * doneBytes) / totalBytes : 100;
            report.report({ message: `${doneFiles} of ${totalFiles} files`, increment: pct - reported });
            reported = pct;
          },
        });
      } finally {
        cancel.dispose();
        this.transcriptCount.at = 0;
        await this.tools.afterIngest('import', 0);
        await this.foldOldHistory(true);
        this.nextContext.schedule();
        this.notify();
      }
    });
  }

  get id(): string {
    return this.engine.identity.id;
  }

  get name(): string {
    return this.engine.identity.name;
  }

  /** Read whatever is new in the event log. Never rejects: failures are logged. */
  requestIngest(): Promise<void> {
    if (this.engine.role !== 'writer' || this.disposed) return Promise.resolve();
    if (this.queuedIngest) return this.queuedIngest;
    const task = this.exclusive(async () => {
      this.queuedIngest = undefined;
      await this.ingestOnce();
    }).catch((error: unknown) => this.log.error(`ingest of ${this.name} failed`, error));
    this.queuedIngest = task;
    return task;
  }

  private async ingestOnce(): Promise<void> {
    if (this.disposed || this.engine.role !== 'writer') return;
    const pending = this.engine.pendingBytes();
    if (pending > LARGE_BACKLOG_BYTES) {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Context Deck: reading ${formatMb(pending)} of agent activity for ${this.name}`,
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
    return this.exclusive(() => this.runIngest('rebuild', report, token, true));
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
    let inProcess: CatchUpResult | undefined;
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
              message: `${percent}% (${formatMb(progress.doneBytes)} of ${formatMb(progress.totalBytes)})`,
            });
            reportedPercent = percent;
          }
          // Counts grow chunk by chunk during a long catch-up; let the dashboard follow.
          this.notify();
        },
      };
      const readHere = () =>
        kind === 'rebuild' ? this.engine.rebuild(options) : this.engine.ingest(options);
      let result: IngestResult & { transcriptFilesImported?: number };
      if (large && catchUpScript) {
        try {
          const caughtUp = await this.engine.catchUp(catchUpScript, {
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
          // The catch-up found the tools in use: ProjectTools finds nothing new to rank by.
          this.tools.scheduleRank();
        } catch (error) {
          this.log.warn(`${this.name}: ${(error as Error).message}; reading on the extension host's thread`);
          result = await readHere();
        } finally {
          this.catchUpCounts = undefined;
        }
      } else {
        result = await readHere();
      }
      if (result.bytes > 0 || result.rewritten.length > 0) changed = true;
      if (result.events > 0) this.gauge.sessionsChanged();
      // A follower's change arrives with new bytes; without any, its request waits for the next pass.
      if (result.bytes > 0) await saveIfRequested(this.engine);
      await this.tools.afterIngest(kind, result.events);
      folded += await this.foldOldHistory(
        !inProcess && (chunks >= FOLD_EVERY_CHUNKS || kind === 'rebuild'),
        false,
      );
      if (result.events > 0) this.nextContext.schedule();
      if (result.bytes > 0 || kind === 'rebuild') {
        const reimported =
          kind === 'rebuild'
            ? `, ${result.transcriptFilesImported ?? 0} transcript files imported again`
            : '';
        this.log.info(
          `${kind} ${this.name}: ${result.events} events, ${result.rejected} rejected, ${result.foreign} for other projects, ` +
            `${formatMb(result.bytes)}${reimported}${folded > 0 ? `, ${folded} rows of older history folded` : ''} in ${Date.now() - started} ms${inProcess ? ` in the catch-up process (peak RSS ${formatMb(inProcess.peakRssBytes)})` : ''}, longest extension host pause ${pauses.maxMs()} ms${abort.signal.aborted ? ' (cancelled)' : ''}; ${hostMemory()}`,
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
      if (changed) this.notify();
      this.showNewWarnings();
    }
  }

  private logPausesAfterCatchUp(): void {
    const pauses = longestPause();
    clearTimeout(this.afterCatchUpTimer);
    this.afterCatchUpTimer = setTimeout(() => {
      pauses.stop();
      if (this.disposed) return;
      this.log.info(
        `${this.name}: in the ${AFTER_CATCH_UP_MS / 1000} s after the catch-up, as the views read the new database, longest extension host pause ${pauses.maxMs()} ms`,
      );
    }, AFTER_CATCH_UP_MS);
  }

  /**
   * Fold detail older than the `contextDeck.history.detailDays` window (after the registry has read the
   * calls it folds). `newHistory`: older detail may have come in, look even if the window has not moved.
   * `log`: say how many rows were folded (an ingest says it in its own line). Must run inside the queue.
   * Never rejects: failures are logged. Returns the rows folded.
   */
  async foldOldHistory(newHistory = false, log = true): Promise<number> {
    try {
      await this.tools.discoverNew();
      const days = detailDays();
      const rows = await this.engine.foldOldHistory(days, newHistory);
      if (log && rows > 0)
        this.log.info(`${this.name}: ${rows} rows of history older than ${days} days folded`);
      return rows;
    } catch (error) {
      this.log.error(`folding old history of ${this.name} failed`, error);
      return 0;
    }
  }

  /** A reader follows the writer's snapshots and takes over when the writer window has gone. */
  async followWriter(): Promise<void> {
    if (this.disposed || this.engine.role !== 'reader') return;
    await this.exclusive(async () => {
      if (await this.engine.tryPromote()) {
        this.log.info(`${this.name}: the writing window went away; this window now writes the project`);
        return;
      }
      await this.engine.reloadIfChanged();
    });
    this.showNewWarnings();
    // requestIngest does nothing unless the promotion above made this window the writer.
    await this.requestIngest();
  }

  /**
   * Make a change that only the writer turns into rows (a memory event appended to the log) and resolve once
   * this window shows it, or has waited WRITER_WAIT_MS. The writer ingests it at once. A follower can't write
   * the database, and replaying its change on its own copy until the writer's snapshot has it would be a
   * second implementation of every memory write; so it asks the writer to save at once (writerLock's
   * requestSave) and reloads each new snapshot until `shows` is true, a few hundred milliseconds; the
   * dashboard says what it waits for meanwhile.
   */
  async applyChange<T>(write: () => T, shows: (written: T) => boolean): Promise<T> {
    if (this.engine.role === 'writer') {
      const written = write();
      await this.requestIngest();
      return written;
    }
    requestSave(this.engine.lockPath);
    const written = write();
    this.waitingForWriter++;
    this.notify();
    try {
      const deadline = Date.now() + WRITER_WAIT_MS;
      while (!this.disposed && !shows(written) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, WRITER_POLL_MS));
        await this.followWriter();
      }
    } finally {
      this.waitingForWriter--;
      this.notify();
    }
    return written;
  }

  /** Engine warnings (e.g. a damaged snapshot set aside) are shown to the user once each. */
  showNewWarnings(): void {
    const warnings = this.engine.warnings;
    for (; this.shownWarnings < warnings.length; this.shownWarnings++) {
      const warning = warnings[this.shownWarnings];
      this.log.warn(`${this.name}: ${warning}`);
      void vscode.window.showWarningMessage(`Context Deck (${this.name}): ${warning}`);
    }
  }

  /** What the dashboard shows of this project; Projects adds the agent connection and the pruning advice. */
  view(): Omit<ProjectView, 'connection' | 'advice'> {
    const identity = this.engine.identity;
    return {
      id: identity.id,
      name: identity.name,
      root: identity.mainRoot,
      role: this.engine.role,
      counts: this.catchUpCounts ?? this.engine.counts(),
      lastEventAt: this.engine.lastEventAt(),
      progress: this.progress,
      warnings: [...this.engine.warnings],
      gauge: this.gauge.view(),
      nextContext: this.nextContext.view(),
      transcriptFiles: this.transcriptFiles(),
      ...(this.waitingForWriter > 0 ? { sharing: { message: WAITING_FOR_WRITER } } : {}),
    };
  }

  /** Stop any ingest in progress and close the engine, which saves the snapshot and releases the lock. */
  async close(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.afterCatchUpTimer);
    this.gauge.dispose();
    this.tools.dispose();
    this.nextContext.dispose();
    this.abort?.abort();
    await this.tail.catch(() => undefined);
    await this.engine.close();
  }

  /** Run database work for this project after whatever is queued (ingests, imports, registry passes). */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.tail.then(job);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** `contextDeck.history.detailDays`: how many days of history keep their detail. */
function detailDays(): number {
  return vscode.workspace.getConfiguration('contextDeck').get<number>('history.detailDays', 30);
}

/** The extension host's memory (all extensions'): its JS heap, and buffers outside it (sql.js's database). */
function hostMemory(): string {
  const { heapUsed, external, rss } = process.memoryUsage();
  return `extension host heap ${formatMb(heapUsed)}, buffers ${formatMb(external)}, RSS ${formatMb(rss)}`;
}

export function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
