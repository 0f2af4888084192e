import * as vscode from 'vscode';
import { type ProjectEngine, type ActivityTypes } from '../../engine';
import type { ProjectView } from '../../shared/protocol';
import { LiveGauge } from './liveGauge';
import type { Log } from '../editor/log';
import { NextContext } from './nextContext';
import { currentSettings } from '../editor/settings';
import { ProjectIngest, catchUpScript } from './projectIngest';
import { ProjectTools } from './projectTools';

/** The extension host's own timers, for the engine's view scheduler. */
const HOST_TIMERS: ActivityTypes.ViewTimers = {
  now: Date.now,
  after: (run, ms) => setTimeout(run, ms),
  every: (run, ms) => setInterval(run, ms),
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Counting transcripts lists folders; the dashboard asks far more often than they change. */
const TRANSCRIPT_COUNT_TTL_MS = 10_000;

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
  private shownWarnings = 0;
  private disposed = false;
  private transcriptCount = { value: 0, at: 0 };
  /** Changes made here that this follower waits to see in the writer's snapshot. */
  private waitingForWriter = 0;
  readonly gauge: LiveGauge;
  /** The tool registry: config scans, discovery from use, ranking for the dashboard. */
  readonly tools: ProjectTools;
  readonly nextContext: NextContext;
  /** When the derived views are brought up to date: the engine decides, with this window's timers and queue. */
  readonly views: ActivityTypes.ViewScheduler;
  /** Reading the event log, and the views that follow it. */
  readonly ingest: ProjectIngest;

  constructor(
    readonly engine: ProjectEngine,
    private readonly log: Log,
    readonly notify: () => void,
  ) {
    this.gauge = new LiveGauge(engine, log, notify, currentSettings);
    this.tools = new ProjectTools(this, log, notify);
    this.nextContext = new NextContext(() => this.views);
    this.ingest = new ProjectIngest(this, log);
    this.views = engine.scheduleViews({
      timers: HOST_TIMERS,
      queue: (task) => this.exclusive(task),
      settings: () => {
        const settings = currentSettings();
        return {
          detailDays: settings['history.detailDays'],
          mode: settings.contextSelection,
          strategy: settings.ranking,
          hideBuiltins: !settings['tools.showBuiltins'],
        };
      },
      ranked: (tools, settings) => this.tools.show(tools, settings),
      context: (context) => {
        this.nextContext.set(context);
        notify();
      },
      discovered: (found) => this.tools.discovered(found),
      failed: (view, error) => log.error(`the ${view} of ${this.name} failed`, error),
    });
  }

  /** Agents' session files on disk (Claude Code transcripts, Codex rollouts...) that may belong to this project. */
  transcriptFiles(): number {
    if (Date.now() - this.transcriptCount.at > TRANSCRIPT_COUNT_TTL_MS) {
      const value = this.engine.countSessionFiles();
      this.transcriptCount = { value, at: Date.now() };
    }
    return this.transcriptCount.value;
  }

  /** Import the agents' session files of this project, in the same queue as ingestion. */
  importHistory(
    report: vscode.Progress<{ message?: string; increment?: number }>,
    token: vscode.CancellationToken,
  ): Promise<ActivityTypes.TranscriptImportResult> {
    return this.exclusive(async () => {
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      let reported = 0;
      const options = {
        signal: abort.signal,
        onProgress: ({
          doneBytes,
          totalBytes,
          doneFiles,
          totalFiles,
        }: ActivityTypes.TranscriptImportProgress) => {
          const pct = totalBytes > 0 ? (100 * doneBytes) / totalBytes : 100;
          report.report({ message: `${doneFiles} of ${totalFiles} files`, increment: pct - reported });
          reported = pct;
        },
      };
      try {
        // In the catch-up process: a huge or hostile session file costs that process, never this thread.
        const result = catchUpScript
          ? await this.engine.importInChild(catchUpScript, options)
          : await this.engine.importTranscripts(options);
        for (const problem of result.problems) this.log.warn(`${this.name}: not imported: ${problem}`);
        return result;
      } finally {
        cancel.dispose();
        this.transcriptCount.at = 0;
        // The registry reads the imported calls, then older history is folded (engine/project/derivedViews.ts).
        await this.ingest.foldOldHistory(true);
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
    await this.ingest.request();
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
      await this.ingest.request();
      return written;
    }
    this.engine.requestSave();
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
      counts: this.ingest.catchUpCounts ?? this.engine.counts(),
      lastEventAt: this.engine.lastEventAt(),
      progress: this.ingest.progress,
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
    this.ingest.dispose();
    this.gauge.dispose();
    this.tools.dispose();
    this.views.dispose();
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
