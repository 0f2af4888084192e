import * as vscode from 'vscode';
import {
  eventsDir,
  identifyProject,
  isWithin,
  makeHomePrivate,
  ProjectEngine,
  resolveHome,
  yieldToHost,
} from '../../engine';
import { type DashboardState, PROTOCOL_VERSION, type ProjectView } from '../../shared/protocol';
import type { AgentConnection } from '../editor/agentConnection';
import { ContextAdvice } from './contextAdvice';
import { formatBytes } from '../../shared/formatBytes';
import { LiveProject } from './liveProject';
import { LogFollower } from './logFollower';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import { longestPause } from '../editor/pauseWatch';
import { UserInput } from '../editor/userInput';
import { currentSettings } from '../editor/settings';

/**
 * Every project open in this window (one per workspace folder, duplicates of one repository merged), kept
 * following the event log by a LogFollower.
 */
export class Projects implements vscode.Disposable {
  private lives: LiveProject[] = [];
  private problems: string[] = [];
  private readonly follower: LogFollower;
  private reopening: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires on any change a view may want to show (counts, role, progress); listeners throttle. */
  readonly onDidChange = this.changed.event;
  home = resolveHome(undefined);
  /** Pruning advice for each project's live session, and its actions. */
  readonly advice: ContextAdvice;
  private readonly userInput = new UserInput();

  /** Whether the projects have been opened once: until then there is nothing to show but "Loading…". */
  opened = false;

  /** Set by the dashboard: resolves when it has rendered, or soon when it is not being shown. */
  beforeCatchUp: () => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly log: Log,
    private readonly connection: AgentConnection,
  ) {
    this.follower = new LogFollower(this, log, () => this.fire());
    this.advice = new ContextAdvice(log, () => this.fire());
  }

  get all(): readonly LiveProject[] {
    return this.lives;
  }

  find(id: string): LiveProject | undefined {
    return this.lives.find((live) => live.id === id);
  }

  get folderOpen(): boolean {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  }

  /** Open (again) one engine per folder: at start, and when the folders or the home setting change. */
  reopen(): Promise<void> {
    this.reopening = this.reopening
      .then(() => this.doReopen())
      .catch((error: unknown) => this.log.error('opening projects failed', error));
    return this.reopening;
  }

  private async doReopen(): Promise<void> {
    await this.closeAll();
    if (this.disposed) return;
    this.problems = [];
    this.home = resolveHome(currentSettings().home || undefined);
    const folders = (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map((folder) => folder.uri.fsPath);
    this.log.info(`home ${this.home}; folders: ${folders.join(', ') || '(none)'}`);
    if (folders.length === 0) {
      this.opened = true;
      this.fire();
      return;
    }
    this.makeHomePrivate();
    const opened = new Set<string>();
    for (const folder of folders) {
      // A folder nested in another open folder is its own project: the outer one leaves its events alone.
      const excludeRoots = folders.filter((other) => other !== folder && isWithin(folder, other));
      // Opening reads and checks the saved database (the check on a worker): how long typing waited meanwhile.
      let pauses: ReturnType<typeof longestPause> | undefined;
      try {
        const { id, name } = identifyProject(folder);
        if (opened.has(id)) continue; // two worktrees of one repository are one project
        opened.add(id);
        pauses = longestPause();
        const openStarted = Date.now();
        const engine = await ProjectEngine.open({
          home: this.home,
          folder,
          excludeRoots,
          role: 'auto',
          purpose: `VS Code window (extension host pid ${process.pid})`,
          lastInputAt: this.userInput.lastInputAt,
          onSaved: ({ bytes, writtenBytes, exportMs, totalMs }) =>
            this.log.info(
              `saved ${name}: wrote ${formatBytes(writtenBytes)} of ${formatBytes(bytes)} (the pages that changed) in ${Math.round(totalMs)} ms, of which copying the database out held the extension host ${Math.round(exportMs)} ms`,
            ),
        });
        pauses.stop();
        // Each part of the start (the engine, the views' first reads, the first state) is a task of its own.
        await yieldToHost();
        if (this.disposed) {
          await engine.close();
          return;
        }
        const live = new LiveProject(engine, this.log, () => this.fire());
        engine.onDidChange(() => this.fire());
        this.lives.push(live);
        this.log.info(
          `opened ${live.name} (${engine.identity.mainRoot}) as ${engine.role} in ${Date.now() - openStarted} ms, ` +
            `${formatBytes(engine.snapshotBytes())}; meanwhile the extension host waited at most ${pauses.maxMs()} ms`,
        );
        live.showNewWarnings();
      } catch (error) {
        pauses?.stop();
        this.log.error(`could not open ${folder}`, error);
        this.problems.push(`Could not open ${folder}: ${shortMessage(error)}`);
      }
    }
    await yieldToHost();
    if (this.disposed) return;
    this.opened = true;
    this.fire();
    // Catch up on whatever was appended while no window was reading, once the dashboard (if it is opening)
    // has rendered: a busy extension host delays the webview's first load for the whole catch-up otherwise.
    await this.beforeCatchUp();
    if (this.disposed) return;
    this.follower.start();
  }

  /** The home holds the agent's activity: only its owner may read it, whatever an earlier version left. */
  private makeHomePrivate(): void {
    try {
      const changed = makeHomePrivate(this.home);
      if (changed.length > 0) {
        this.log.info(
          `made ${changed.length} files and folders under ${this.home} private (owner only): ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}`,
        );
      }
    } catch (error) {
      this.log.error(`could not make ${this.home} private`, error);
    }
  }

  /** Start or stop the poll as needed, e.g. after contextDeck.ingest.pollIntervalSeconds changed. */
  restartPoll(): void {
    this.follower.restartPoll();
  }

  ingestAll(): Promise<void> {
    return Promise.all(this.lives.map((live) => live.ingest.request())).then(() => undefined);
  }

  state(): DashboardState {
    const projects: ProjectView[] = [];
    const problems = [...this.problems];
    for (const live of this.lives) {
      try {
        projects.push({
          ...live.view(),
          connection: this.connection.view(live.engine.identity.mainRoot),
          advice: this.advice.view(live),
        });
      } catch (error) {
        this.log.error(`reading ${live.name} failed`, error);
        problems.push(`Could not read ${live.name}: ${shortMessage(error)}`);
      }
    }
    return {
      protocolVersion: PROTOCOL_VERSION,
      home: this.home,
      eventsDir: eventsDir(this.home),
      projects,
      problem: problems.length > 0 ? problems.join('\n') : null,
      folderOpen: this.folderOpen,
    };
  }

  /** Something shown besides the engines changed (e.g. an agent settings file). */
  refresh(): void {
    this.fire();
  }

  private fire(): void {
    if (!this.disposed) this.changed.fire();
  }

  /** Stop following and close every engine (each saves its snapshot and releases its lock). */
  async closeAll(): Promise<void> {
    this.follower.stop();
    const closing = this.lives;
    this.lives = [];
    await Promise.all(
      closing.map((live) =>
        live.close().catch((error: unknown) => this.log.error(`closing ${live.name} failed`, error)),
      ),
    );
  }

  /** Final shutdown (deactivate): no reopening after this. */
  async shutdown(): Promise<void> {
    this.disposed = true;
    await this.reopening;
    await this.closeAll();
    this.changed.dispose();
    this.userInput.dispose();
  }

  dispose(): void {
    void this.shutdown();
  }
}
