/**
 * Keeps one project's tool registry current and ranked for the dashboard (issue 4):
 * - the writer scans the agents' config files (on a worker thread) into the registry at start, after an ingest that brought a
 *   session start, and when one of those files changes (debounced), and discovers tools from use after
 *   every ingest and history import; a reader ranks the writer's snapshot; both show each tool switched on
 *   or off as their own latest scan of the settings files says (see withConfigSwitches);
 * - every database pass runs in the project's exclusive queue, so none overlaps an ingest;
 * - the engine ranks (its view scheduler decides when: after new calls, a rescan, a setting change, and
 *   as time passes); the dashboard is sent the tools only when their version grows, never with each state
 *   update;
 * - the dashboard's actions: open the declaring file at its entry (toolConfigFiles.ts), disable or re-enable
 *   an MCP server for the project (serverSwitch.ts).
 * Nothing here throws into VS Code: failures are logged.
 */
import * as vscode from 'vscode';
import {
  configLocations,
  type ProjectEngine,
  type RankedTool,
  serverSwitches,
  withConfigSwitches,
  type ActivityTypes,
  type ToolTypes,
} from '../../engine';
import type { ToolsView } from '../../shared/protocol';
import type { ToolScope } from '../../shared/tools';
import { toolView } from '../views/toolsView';
import type { Log } from '../editor/log';
import { ServerSwitch } from './serverSwitch';
import { type ToolHost, ToolScanner } from './toolScan';
import { openToolSource, watchToolConfigs } from './toolConfigFiles';

/** Config files change in bursts (an editor's save, a plugin install): one rescan after they settle. */
const CONFIG_DEBOUNCE_MS = 500;

/** Versions are unique across the window, so a reopened project never repeats one the dashboard has. */
let lastVersion = 0;

export class ProjectTools implements vscode.Disposable {
  private ranked: RankedTool[] = [];
  private readonly scanner: ToolScanner;
  /** The last view built and its content as JSON, to tell a new ranking from a repeat of the last. */
  private current: Omit<ToolsView, 'version' | 'scannedAt'> | undefined;
  private currentKey = '';
  private versionNumber = 0;
  /** Sessions seen at the last look: one more means a session began, which rescans the config. */
  private knownSessions = 0;
  private scanTimer: NodeJS.Timeout | undefined;
  /** A scan waits in the project's queue: a second request joins it. */
  private scanQueued = false;
  private role: ProjectEngine['role'];
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly serverSwitch: ServerSwitch;

  constructor(
    private readonly host: ToolHost & { readonly views: ActivityTypes.ViewScheduler },
    private readonly log: Log,
    private readonly notify: () => void,
  ) {
    this.role = host.engine.role;
    this.scanner = new ToolScanner(host, log, () => this.disposed);
    this.serverSwitch = new ServerSwitch(host, log, {
      isServer: (server) => this.ranked.some((tool) => tool.type === 'mcp_server' && tool.server === server),
      rescan: () => host.exclusive(() => this.scanAndRank()),
    });
    this.disposables.push(...watchToolConfigs(this.root, () => this.scheduleScan(), log));
    const offChange = host.engine.onDidChange(() => this.engineChanged());
    this.disposables.push(
      { dispose: offChange },
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (
          event.affectsConfiguration('contextDeck.ranking') ||
          event.affectsConfiguration('contextDeck.tools.showBuiltins')
        )
          host.views.rankSoon(true);
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
      scannedAt: this.scanner.scannedAt,
    };
  }

  /**
   * Called inside the project's queue right after an ingest, rebuild or history import, before the derived
   * views (engine/project/derivedViews.ts): a rebuilt database declares the config's tools again; a new
   * session start rescans the config.
   */
  async beforeViews(kind: 'ingest' | 'rebuild', events: number): Promise<void> {
    if (this.disposed || this.host.engine.role !== 'writer') return;
    if (kind === 'rebuild') {
      // A rebuilt database starts with an empty registry: declare the config's tools again.
      this.knownSessions = 0;
      this.scanner.forgetApplied();
      await this.scanner.scan();
      this.host.views.rankSoon();
    } else if (events > 0 && this.sawSessionStart()) {
      this.scheduleScan(0);
    }
  }

  /** The registry read new calls (the engine ranks again): said when they added, demoted or restored tools. */
  discovered(found: ToolTypes.DiscoveryResult): void {
    if (found.added.length || found.demoted.length || found.recovered.length)
      this.log.info(
        `${this.host.name} tools: ${found.added.length} found in use, ${found.demoted.length} demoted, ${found.recovered.length} recovered`,
      );
  }

  /** Whether a session (of any agent) began since the last look. */
  private sawSessionStart(): boolean {
    const sessions = this.host.engine.sessions.count();
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
    if (role === 'reader') this.host.views.rankSoon();
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

  /** Must run inside the queue: scan, then the engine reads new calls and ranks (each a task of its own). */
  private async scanAndRank(): Promise<void> {
    await this.scanner.scan();
    await this.host.views.rankInQueue();
  }

  /** A ranking from the engine: shown with this window's switches, sent to the dashboard if it changed. */
  show(
    ranked: RankedTool[],
    { strategy, hideBuiltins }: Pick<ActivityTypes.ViewSettings, 'strategy' | 'hideBuiltins'>,
  ): void {
    if (this.disposed) return;
    this.ranked = withConfigSwitches(ranked, this.scanner.latest);
    const userHome = configLocations({ projectRoot: this.root }).userHome;
    const next = {
      strategy,
      builtinsHidden: hideBuiltins,
      tools: this.ranked.map((tool) => toolView(tool, this.root, userHome)),
      problems: this.scanner.problems,
    };
    const key = JSON.stringify(next);
    // The same list again (a rescan that changed nothing, the periodic rerank): nothing to resend.
    if (key === this.currentKey && this.versionNumber > 0) return;
    this.current = next;
    this.currentKey = key;
    this.versionNumber = ++lastVersion;
    this.notify();
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
  openSource(name: string, scope?: ToolScope): Promise<void> {
    return openToolSource(name, this.find(name, scope));
  }

  /** The MCP servers of the ranking shown, by switch (the pruning advice offers to disable enabled ones). */
  servers(): { enabled: string[]; disabled: string[] } {
    return serverSwitches(this.ranked);
  }

  /** Disable or re-enable an MCP server for this project (see ServerSwitch). */
  setServerEnabled(
    server: string,
    enabled: boolean,
    request: ToolTypes.ToggleRequest = 'user',
  ): Promise<boolean> {
    return this.serverSwitch.set(server, enabled, request);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.scanTimer);
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}
