/**
 * Keeps one project's tool registry current and ranked for the dashboard (issue 4):
 * - the writer scans the agents' config files (on a worker thread) into the registry at start, after an ingest that brought a
 *   session start, and when one of those files changes (debounced), and discovers tools from use after
 *   every ingest and history import; a reader ranks the writer's snapshot; both show each tool switched on
 *   or off as their own latest scan of the settings files says (see withConfigSwitches);
 * - every database pass runs in the project's exclusive queue, so none overlaps an ingest;
 * - the ranking is recomputed only when something it depends on changed, and the dashboard is sent the
 *   tools only when their version grows, never with each state update;
 * - the dashboard's actions: open the declaring file at the entry, disable or re-enable an MCP server for
 *   the project (plan, confirm the exact changes, write with a backup), all reversible: a disable offers
 *   Undo, which reverts without asking again.
 * Nothing here throws into VS Code: failures are logged.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  applyScan,
  configLocations,
  type ConfigScan,
  type DiscoveryResult,
  discoverFromUse,
  displayPath,
  planProjectServerEnabled,
  type ProjectEngine,
  type RankedTool,
  RANKING_STRATEGIES,
  type RankingStrategy,
  rankToolsInSteps,
  scanConfigsOffThread,
  serverSwitches,
  sessionCount,
  toggleConfirmation,
  type ToggleRequest,
  type ToolScope,
  withConfigSwitches,
  writeProjectServerEnabled,
  yieldToHost,
} from '../engine';
import type { ToolProblemView, ToolView, ToolsView } from '../shared/protocol';
import { type Log, shortMessage } from './log';
import { allowedInWorkspace } from './workspaceTrust';

/** Config files change in bursts (an editor's save, a plugin install): one rescan after they settle. */
const CONFIG_DEBOUNCE_MS = 500;
/** Ranking follows tool calls; during a busy session at most this often. */
const RANK_THROTTLE_MS = 2000;
/** A scan that finds exactly what the last one applied still confirms the tools this often (30-day rule). */
const CONFIRM_INTERVAL_MS = 3600_000;
/** "Uses in 7 days" and the 30-day rule move with time even when nothing happens. */
const RERANK_INTERVAL_MS = 10 * 60_000;
/** New calls read into the registry per task after a catch-up (all of a 1M-event backlog took 400 ms at once). */
const DISCOVERY_SLICE_CALLS = 5000;

/** Versions are unique across the window, so a reopened project never repeats one the dashboard has. */
let lastVersion = 0;

/** What this module needs of a LiveProject: its engine and its exclusive queue. */
export interface ToolHost {
  readonly engine: ProjectEngine;
  readonly name: string;
  exclusive<T>(job: () => Promise<T>): Promise<T>;
}

function settings(): { strategy: RankingStrategy; hideBuiltins: boolean } {
  const config = vscode.workspace.getConfiguration('contextDeck');
  const strategy = config.get<string>('ranking', 'frequency-share');
  return {
    strategy: RANKING_STRATEGIES.includes(strategy as RankingStrategy)
      ? (strategy as RankingStrategy)
      : 'frequency-share',
    hideBuiltins: !config.get<boolean>('tools.showBuiltins', false),
  };
}

export class ProjectTools implements vscode.Disposable {
  private ranked: RankedTool[] = [];
  /** The latest scan of the config files, whose on/off switches the ranking shows. */
  private scan: ConfigScan | undefined;
  private problems: ToolProblemView[] = [];
  private scannedAt: number | null = null;
  /** The last view built and its content as JSON, to tell a new ranking from a repeat of the last. */
  private current: Omit<ToolsView, 'version' | 'scannedAt'> | undefined;
  private currentKey = '';
  /** What the last applied scan found, and when, so that a scan finding the same skips the database. */
  private appliedScanKey = '';
  private appliedScanAt = 0;
  private versionNumber = 0;
  /** Sessions seen at the last look: one more means a session began, which rescans the config. */
  private knownSessions = 0;
  private scanTimer: NodeJS.Timeout | undefined;
  private rankTimer: NodeJS.Timeout | undefined;
  private lastRankAt = 0;
  private rankQueued = false;
  private scanQueued = false;
  private role: ProjectEngine['role'];
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly host: ToolHost,
    private readonly log: Log,
    private readonly notify: () => void,
  ) {
    this.role = host.engine.role;
    this.watchConfigFiles();
    const offChange = host.engine.onDidChange(() => this.engineChanged());
    const interval = setInterval(() => this.scheduleRank(), RERANK_INTERVAL_MS);
    this.disposables.push(
      { dispose: offChange },
      { dispose: () => clearInterval(interval) },
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (
          event.affectsConfiguration('contextDeck.ranking') ||
          event.affectsConfiguration('contextDeck.tools.showBuiltins')
        )
          this.scheduleRank(true);
      }),
    );
    this.scheduleScan(0);
  }

  /** Grows with each new ranking; the dashboard resends the tools when it differs from what it sent. */
  get version(): number {
    return this.versionNumber;
  }

  private get root(): string {
    return this.host.engine.identity.mainRoot;
  }

  view(): ToolsView {
    return {
      version: this.versionNumber,
      strategy: this.current?.strategy ?? 'frequency-share',
      builtinsHidden: this.current?.builtinsHidden ?? true,
      tools: this.current?.tools ?? [],
      problems: this.current?.problems ?? [],
      scannedAt: this.scannedAt,
    };
  }

  private toView(tool: RankedTool, userHome: string): ToolView {
    const root = this.root;
    return {
      name: tool.name,
      type: tool.type,
      scope: tool.scope,
      origin: tool.origin,
      server: tool.server,
      source: tool.source === null ? null : displayPath(tool.source, root, userHome),
      line: tool.line,
      description: tool.description,
      disabled: tool.disabled,
      status: tool.status,
      statusReason: tool.statusReason,
      score: tool.score,
      scoreParts: tool.scoreParts,
      uses7d: tool.uses7d,
      usesTotal: tool.usesTotal,
      failures: tool.failures,
      successRate: tool.successRate,
      lastUsedAt: tool.lastUsedAt,
      unseenDays: tool.unseenDays,
      agents: tool.agents,
      ...(tool.children ? { children: tool.children.map((child) => this.toView(child, userHome)) } : {}),
    };
  }

  /**
   * Called by the LiveProject inside its queue, right after an ingest, rebuild or history import: new tool
   * calls join the registry (and may demote or restore tools); a new session start rescans the config.
   */
  async afterIngest(kind: 'ingest' | 'rebuild' | 'import', events: number): Promise<void> {
    if (this.disposed || this.host.engine.role !== 'writer') return;
    if (kind === 'rebuild') {
      // A rebuilt database starts with an empty registry: declare the config's tools again.
      this.knownSessions = 0;
      this.appliedScanKey = '';
      await this.scanNow();
    } else if (kind === 'ingest' && events > 0 && this.sawSessionStart()) {
      this.scheduleScan(0);
    }
    try {
      const found = await this.discoverInSlices();
      if (found.calls > 0 || kind === 'rebuild') {
        if (found.added.length || found.demoted.length || found.recovered.length)
          this.log.info(
            `${this.host.name} tools: ${found.added.length} found in use, ${found.demoted.length} demoted, ${found.recovered.length} recovered`,
          );
        this.scheduleRank();
      }
    } catch (error) {
      this.log.error(`discovering tools of ${this.host.name} failed`, error);
    }
  }

  /** Read new calls into the registry (before old detail is folded away). Must run inside the queue. */
  async discoverNew(): Promise<void> {
    if (this.disposed || this.host.engine.role !== 'writer') return;
    if ((await this.discoverInSlices()).calls > 0) this.scheduleRank();
  }

  /** Read new calls into the registry a slice at a time, letting the host breathe between slices. */
  private async discoverInSlices(): Promise<DiscoveryResult> {
    const total: DiscoveryResult = { calls: 0, added: [], demoted: [], recovered: [], more: false };
    for (;;) {
      const slice = discoverFromUse(this.host.engine, DISCOVERY_SLICE_CALLS);
      total.calls += slice.calls;
      total.added.push(...slice.added);
      total.demoted.push(...slice.demoted);
      total.recovered.push(...slice.recovered);
      if (!slice.more || this.disposed) return total;
      await yieldToHost();
    }
  }

  /** Whether a session (of any agent) began since the last look. */
  private sawSessionStart(): boolean {
    const sessions = sessionCount(this.host.engine.db);
    if (sessions <= this.knownSessions) return false;
    this.knownSessions = sessions;
    return true;
  }

  /** A reader follows the writer's snapshots; a reader that took over becomes the one that scans. */
  private engineChanged(): void {
    const role = this.host.engine.role;
    if (role !== this.role) {
      this.role = role;
      if (role === 'writer') {
        this.scheduleScan(0);
        return;
      }
    }
    if (role === 'reader') this.scheduleRank();
  }

  /** Rescan the config (writer: into the registry; reader: for its switches and problems), then rank. */
  scheduleScan(delayMs = CONFIG_DEBOUNCE_MS): void {
    if (this.disposed) return;
    clearTimeout(this.scanTimer);
    this.scanTimer = setTimeout(() => {
      this.scanTimer = undefined;
      if (this.scanQueued) return;
      this.scanQueued = true;
      void this.host
        .exclusive(async () => {
          this.scanQueued = false;
          await this.scanAndRank();
        })
        .catch((error: unknown) => {
          this.scanQueued = false;
          this.log.error(`scanning the tools of ${this.host.name} failed`, error);
        });
    }, delayMs);
  }

  /**
   * Must run inside the queue. Scan, discovery and ranking are tasks of their own: at a year of history each
   * takes 10-30 ms.
   */
  private async scanAndRank(): Promise<void> {
    await this.scanNow();
    if (this.host.engine.role === 'writer') await this.discoverInSlices();
    await yieldToHost();
    await this.rankNow();
  }

  /** Must run inside the queue. Reading the files and writing the registry are tasks of their own. */
  private async scanNow(): Promise<void> {
    if (this.disposed) return;
    try {
      // On a worker: a hostile repository's files cost a warning, never the host's thread.
      const scan: ConfigScan = await scanConfigsOffThread({ projectRoot: this.root });
      if (this.disposed) return;
      this.scan = scan;
      this.scannedAt = Date.now();
      const known = new Set(this.problems.map((problem) => `${problem.file}\0${problem.message}`));
      this.problems = scan.problems.map((problem) => ({
        file: displayPath(problem.file, scan.projectRoot, scan.userHome),
        message: problem.message,
        ...(problem.readWhole ? { readWhole: true } : {}),
      }));
      for (const problem of this.problems)
        if (!known.has(`${problem.file}\0${problem.message}`))
          this.log.warn(`${this.host.name}: could not read ${problem.file}: ${problem.message}`);
      await yieldToHost();
      if (this.disposed || this.host.engine.role !== 'writer') return;
      // ~/.claude.json is rewritten by Claude Code all the time: a scan that finds what the last one applied
      // changes nothing but the confirmation time, which only matters on a scale of days.
      const key = JSON.stringify([scan.entries, scan.problems, scan.scopes]);
      if (key === this.appliedScanKey && Date.now() - this.appliedScanAt < CONFIRM_INTERVAL_MS) return;
      const applied = applyScan(this.host.engine, scan);
      this.appliedScanKey = key;
      this.appliedScanAt = Date.now();
      if (applied.added.length || applied.staled.length || applied.restored.length)
        this.log.info(
          `${this.host.name} config scan: ${scan.entries.length} declared; ${applied.added.length} new, ` +
            `${applied.staled.length} now stale, ${applied.restored.length} back (${applied.ms.toFixed(1)} ms)`,
        );
    } catch (error) {
      this.log.error(`scanning the tools of ${this.host.name} failed`, error);
    }
  }

  /** Rank again soon (at most every RANK_THROTTLE_MS), in the queue. `now` skips the wait (a setting changed). */
  scheduleRank(now = false): void {
    if (this.disposed || this.rankTimer || this.rankQueued) return;
    const wait = now ? 0 : Math.max(0, this.lastRankAt + RANK_THROTTLE_MS - Date.now());
    this.rankTimer = setTimeout(() => {
      this.rankTimer = undefined;
      this.rankQueued = true;
      void this.host
        .exclusive(async () => {
          this.rankQueued = false;
          await this.rankNow();
        })
        .catch((error: unknown) => {
          this.rankQueued = false;
          this.log.error(`ranking the tools of ${this.host.name} failed`, error);
        });
    }, wait);
  }

  /** Must run inside the queue. Each of the ranking's queries is a task of its own. */
  private async rankNow(): Promise<void> {
    if (this.disposed) return;
    try {
      const { strategy, hideBuiltins } = settings();
      const ranked = await rankToolsInSteps(this.host.engine, { strategy, hideBuiltins });
      if (this.disposed) return;
      this.ranked = withConfigSwitches(ranked, this.scan);
      this.lastRankAt = Date.now();
      const userHome = configLocations({ projectRoot: this.root }).userHome;
      const next = {
        strategy,
        builtinsHidden: hideBuiltins,
        tools: this.ranked.map((tool) => this.toView(tool, userHome)),
        problems: this.problems,
      };
      const key = JSON.stringify(next);
      // The same list again (a rescan that changed nothing, the periodic rerank): nothing to resend.
      if (key === this.currentKey && this.versionNumber > 0) return;
      this.current = next;
      this.currentKey = key;
      this.versionNumber = ++lastVersion;
      this.notify();
    } catch (error) {
      this.log.error(`ranking the tools of ${this.host.name} failed`, error);
    }
  }

  /**
   * Every file that declares tools for this project or its user, watched for a debounced rescan. The
   * user's folders are watched one by one: a recursive watch of all of ~/.claude would follow every
   * transcript write. Plugins are followed through their install list, which changes with each install,
   * update and removal.
   */
  private watchConfigFiles(): void {
    const locations = configLocations({ projectRoot: this.root });
    const root = vscode.Uri.file(this.root);
    const inClaudeDir = (...parts: string[]) => vscode.Uri.file(path.join(locations.claudeDir, ...parts));
    const patterns = [
      new vscode.RelativePattern(root, '.mcp.json'),
      new vscode.RelativePattern(root, '.claude/settings*.json'),
      new vscode.RelativePattern(root, '.claude/{skills,commands,agents}/**'),
      new vscode.RelativePattern(root, '{.vscode,.cursor}/mcp.json'),
      new vscode.RelativePattern(
        vscode.Uri.file(path.dirname(locations.claudeJson)),
        path.basename(locations.claudeJson),
      ),
      new vscode.RelativePattern(inClaudeDir(), 'settings.json'),
      new vscode.RelativePattern(inClaudeDir('skills'), '**'),
      new vscode.RelativePattern(inClaudeDir('commands'), '**'),
      new vscode.RelativePattern(inClaudeDir('agents'), '**'),
      new vscode.RelativePattern(inClaudeDir('plugins'), '*.json'),
    ];
    const changed = () => this.scheduleScan();
    for (const pattern of patterns) {
      try {
        const watcher = vscode.workspace.createFileSystemWatcher(pattern);
        watcher.onDidChange(changed);
        watcher.onDidCreate(changed);
        watcher.onDidDelete(changed);
        this.disposables.push(watcher);
      } catch (error) {
        this.log.warn(`cannot watch ${pattern.baseUri.fsPath}/${pattern.pattern}: ${shortMessage(error)}`);
      }
    }
  }

  /** A tool by name, in `scope`, or in any scope when none is given. */
  private find(name: string, scope?: ToolScope): { tool: RankedTool; parent?: RankedTool } | undefined {
    const matches = (tool: RankedTool) => tool.name === name && (scope === undefined || tool.scope === scope);
    for (const tool of this.ranked) {
      if (matches(tool)) return { tool };
      const child = tool.children?.find(matches);
      if (child) return { tool: child, parent: tool };
    }
    return undefined;
  }

  /** Open the file that declares a tool at its entry; a tool only seen in use opens its server's. */
  async openSource(name: string, scope?: ToolScope): Promise<void> {
    const found = this.find(name, scope);
    if (!found) return;
    const declared = found.tool.source !== null ? found.tool : found.parent;
    if (!declared || declared.source === null) {
      void vscode.window.showInformationMessage(
        `No file to open: ${name} was found in the agent's tool calls, and no config file of this project declares it.`,
      );
      return;
    }
    const line = Math.max(0, (declared.line ?? 1) - 1);
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(vscode.Uri.file(declared.source));
    } catch (error) {
      void vscode.window.showWarningMessage(
        `Context Deck could not open ${declared.source}: ${shortMessage(error)}`,
      );
      return;
    }
    const entry = document.lineAt(Math.min(line, document.lineCount - 1));
    await vscode.window.showTextDocument(document, {
      selection: new vscode.Range(
        entry.lineNumber,
        entry.firstNonWhitespaceCharacterIndex,
        entry.lineNumber,
        entry.range.end.character,
      ),
      preview: true,
    });
  }

  /** The MCP servers of the ranking shown, by switch (the pruning advice offers to disable enabled ones). */
  servers(): { enabled: string[]; disabled: string[] } {
    return serverSwitches(this.ranked);
  }

  /**
   * Disable or re-enable an MCP server for this project through Claude Code's own settings: the exact change
   * is shown in a modal first (not for an Undo), the file is written with a backup, and the tools are
   * rescanned before this resolves, so whatever shows them next shows the change. Resolves to whether the
   * file was changed.
   */
  async setServerEnabled(
    server: string,
    enabled: boolean,
    request: ToggleRequest = 'user',
  ): Promise<boolean> {
    if (!allowedInWorkspace(`${enabled ? 'Enabling' : 'Disabling'} an MCP server`)) return false;
    try {
      return await this.toggleServer(server, enabled, request);
    } catch (error) {
      this.log.error(`${enabled ? 'enabling' : 'disabling'} ${server} failed`, error);
      void vscode.window.showErrorMessage(
        `Context Deck could not ${enabled ? 'enable' : 'disable'} ${server}: ${shortMessage(error)}`,
      );
      return false;
    }
  }

  private async toggleServer(server: string, enabled: boolean, request: ToggleRequest): Promise<boolean> {
    const known = this.ranked.some((tool) => tool.type === 'mcp_server' && tool.server === server);
    if (!known) {
      this.log.warn(`${this.host.name}: no MCP server "${server}" in the registry; nothing changed`);
      return false;
    }
    const plan = planProjectServerEnabled({ projectRoot: this.root, server, enabled });
    if (!plan.supported) {
      void vscode.window.showWarningMessage(
        `Context Deck can't ${enabled ? 'enable' : 'disable'} "${server}" for this project: ${plan.reason}.`,
      );
      return false;
    }
    if (plan.changes.length === 0) {
      const notes = plan.notes.length ? ` ${plan.notes.join('; ')}.` : '';
      void vscode.window.showInformationMessage(
        `Nothing to change: ${server} is already ${enabled ? 'enabled' : 'disabled'} in ${path.basename(plan.file)}.${notes}`,
      );
      return false;
    }
    const confirmation = toggleConfirmation(plan, request, this.host.name, this.host.engine.home);
    if (confirmation) {
      const { message, detail, button } = confirmation;
      if ((await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) !== button)
        return false;
    }
    const backup = writeProjectServerEnabled(plan, this.host.engine.home);
    this.log.info(`${plan.file}: ${plan.changes.join('; ')}${backup ? ` (backup ${backup})` : ''}`);
    await this.host.exclusive(() => this.scanAndRank());
    if (enabled) {
      void vscode.window.setStatusBarMessage(
        `Context Deck: ${server} ${enabled ? 'enabled' : 'disabled'} for ${this.host.name}`,
        4000,
      );
    } else {
      const undo = 'Undo';
      void vscode.window
        .showInformationMessage(
          `Disabled ${server} for ${this.host.name}: Claude Code starts without it from its next session.`,
          undo,
        )
        .then((choice) => choice === undo && this.setServerEnabled(server, true, 'undo'));
    }
    return true;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.scanTimer);
    clearTimeout(this.rankTimer);
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}
