import * as fs from 'node:fs';
import { eventsDir, listLogFiles } from '../../engine';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import type { LiveProject } from './liveProject';
import { currentSettings } from '../editor/settings';

/** fs.watch fires several times per append; one ingest after a short quiet time is enough. */
const WATCH_DEBOUNCE_MS = 100;

/**
 * Keeps the open projects following the event log: a file watcher, and a poll only where watching is not
 * enough: when the watcher failed (some file systems), or while this window follows another window that
 * writes the project (whose exit no file event tells).
 */
export class LogFollower {
  private watcher: fs.FSWatcher | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopped = true;

  constructor(
    private readonly projects: { readonly home: string; readonly all: readonly LiveProject[] },
    private readonly log: Log,
    private readonly changed: () => void,
  ) {}

  /** Watch the log folder, poll where needed, and read (or follow) every project once now. */
  start(): void {
    this.stopped = false;
    this.watch(eventsDir(this.projects.home));
    this.restartPoll();
    this.warnAboutSkippedEntries();
    for (const live of this.projects.all) void this.tick(live);
  }

  /**
   * Entries of the event log folder that are not regular files (a FIFO, a link, a folder) are never read;
   * each project says so once, on the dashboard and in a notification.
   */
  private warnAboutSkippedEntries(): void {
    const { skipped } = listLogFiles(eventsDir(this.projects.home));
    let added = false;
    for (const live of this.projects.all) {
      for (const warning of skipped) {
        if (live.engine.warnings.includes(warning)) continue;
        live.engine.warnings.push(warning);
        added = true;
      }
      live.showNewWarnings();
    }
    if (added) this.changed();
  }

  private watch(dir: string): void {
    if (this.watcher) return;
    try {
      const watcher = fs.watch(dir, { persistent: false }, () => {
        clearTimeout(this.watchTimer);
        this.watchTimer = setTimeout(() => {
          for (const live of this.projects.all) void live.ingest.request();
        }, WATCH_DEBOUNCE_MS);
      });
      watcher.on('error', (error) => {
        // The poll keeps things going; the next tick tries to watch again.
        this.log.warn(`watching ${dir} stopped: ${shortMessage(error)}`);
        watcher.close();
        if (this.watcher === watcher) this.watcher = undefined;
        this.restartPoll();
      });
      this.watcher = watcher;
    } catch (error) {
      this.log.warn(`cannot watch ${dir} (${shortMessage(error)}); polling only`);
    }
  }

  /** Whether a poll is needed (see the class comment). */
  private needsPoll(): boolean {
    return !this.watcher || this.projects.all.some((live) => live.engine.role === 'reader');
  }

  /** Start or stop the poll as needed, e.g. after contextDeck.ingest.pollIntervalSeconds changed. */
  restartPoll(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    if (this.projects.all.length === 0 || this.stopped || !this.needsPoll()) return;
    const ms = currentSettings()['ingest.pollIntervalSeconds'] * 1000;
    this.pollTimer = setInterval(() => void this.pollAll(), ms);
  }

  private async pollAll(): Promise<void> {
    if (this.ticking) return; // a slow tick is still running; skip rather than pile up
    this.ticking = true;
    try {
      if (!this.watcher) this.watch(eventsDir(this.projects.home));
      this.warnAboutSkippedEntries();
      await Promise.all(this.projects.all.map((live) => this.tick(live)));
    } finally {
      this.ticking = false;
    }
    // Watching works again, or this window took over writing: the poll is no longer needed.
    if (!this.needsPoll()) this.restartPoll();
  }

  /** Writers read new lines; readers reload the writer's snapshot or take over when it is gone. */
  private async tick(live: LiveProject): Promise<void> {
    try {
      if (live.engine.role === 'writer') await live.ingest.request();
      else await live.followWriter();
    } catch (error) {
      this.log.error(`following ${live.name} failed`, error);
    }
  }

  /** Stop watching and polling (the projects are closing). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.watchTimer);
    this.pollTimer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }
}
