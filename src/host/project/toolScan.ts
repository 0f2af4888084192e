/** One project's config scans, applied to its registry. */
import { type ProjectEngine, scanConfigsOffThread, yieldToHost, type ToolTypes } from '../../engine';
import type { ToolProblemView } from '../../shared/protocol';
import { toolProblems } from '../views/toolsView';
import type { Log } from '../editor/log';

/** A scan that finds exactly what the last one applied still confirms the tools this often (30-day rule). */
const CONFIRM_INTERVAL_MS = 3600_000;

/** What this module needs of a LiveProject: its engine and its exclusive queue. */
export interface ToolHost {
  readonly engine: ProjectEngine;
  readonly name: string;
  exclusive<T>(job: () => Promise<T>): Promise<T>;
}

export class ToolScanner {
  /** The latest scan of the config files, whose on/off switches the ranking shows. */
  latest: ToolTypes.ConfigScan | undefined;
  problems: ToolProblemView[] = [];
  scannedAt: number | null = null;
  /** What the last applied scan found, and when, so that a scan finding the same skips the database. */
  private appliedKey = '';
  private appliedAt = 0;

  constructor(
    private readonly host: ToolHost,
    private readonly log: Log,
    private readonly stopped: () => boolean,
  ) {}

  /** A rebuilt database starts with an empty registry: the next scan declares the config's tools again. */
  forgetApplied(): void {
    this.appliedKey = '';
  }

  /** Must run inside the queue. Reading the files and writing the registry are tasks of their own. */
  async scan(): Promise<void> {
    if (this.stopped()) return;
    try {
      // On a worker: a hostile repository's files cost a warning, never the host's thread.
      const scan: ToolTypes.ConfigScan = await scanConfigsOffThread({
        projectRoot: this.host.engine.identity.mainRoot,
      });
      if (this.stopped()) return;
      this.latest = scan;
      this.scannedAt = Date.now();
      const known = new Set(this.problems.map((problem) => `${problem.file}\0${problem.message}`));
      this.problems = toolProblems(scan);
      for (const problem of this.problems)
        if (!known.has(`${problem.file}\0${problem.message}`))
          this.log.warn(`${this.host.name}: could not read ${problem.file}: ${problem.message}`);
      await yieldToHost();
      if (this.stopped() || this.host.engine.role !== 'writer') return;
      // ~/.claude.json is rewritten by Claude Code all the time: a scan that finds what the last one applied
      // changes nothing but the confirmation time, which only matters on a scale of days.
      const key = JSON.stringify([scan.entries, scan.problems, scan.scopes]);
      if (key === this.appliedKey && Date.now() - this.appliedAt < CONFIRM_INTERVAL_MS) return;
      const applied = this.host.engine.tools.applyScan(scan);
      this.appliedKey = key;
      this.appliedAt = Date.now();
      if (applied.added.length || applied.staled.length || applied.restored.length)
        this.log.info(
          `${this.host.name} config scan: ${scan.entries.length} declared; ${applied.added.length} new, ` +
            `${applied.staled.length} now stale, ${applied.restored.length} back (${applied.ms.toFixed(1)} ms)`,
        );
    } catch (error) {
      this.log.error(`scanning the tools of ${this.host.name} failed`, error);
    }
  }
}
