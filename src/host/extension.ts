import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { bundledScript, hookSettingsFiles, ProjectEngine } from '../engine';
import { AgentConnection } from './editor/agentConnection';
import type { CommandTable } from './editor/commandIds';
import { MemoryCommands } from './commands/memoryCommands';
import { ProjectCommands } from './commands/projectCommands';
import { registerCommands } from './editor/registerCommands';
import { CompactWarningNotifier } from './compactWarningNotifier';
import { DASHBOARD_VIEW_ID } from './editor/commandIds';
import { DashboardViewProvider } from './dashboard/dashboardView';
import { hostIntents } from './dashboard/intentHandlers';
import { CONTEXT_PREVIEW_SCHEME, ContextPreviewProvider } from './documents/contextPreview';
import { GaugeStatusBar } from './gaugeStatusBar';
import { HostProfiler } from './hostProfiler';
import { PREVIEW_SCHEME } from './editor/settingsChange';
import { Log } from './editor/log';
import { MEMORY_SCHEME, MemoryDocumentProvider } from './documents/memoryDocument';
import { MemoryServers } from './mcpServers';
import { Projects } from './project/projects';
import { REJECTS_SCHEME, RejectsDocumentProvider } from './documents/rejectsDocument';

let projects: Projects | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  context.subscriptions.push(log);
  log.info(`activating Context Deck ${String(context.extension.packageJSON.version)}`);
  warmUpDatabaseCode(log);

  const connection = new AgentConnection(context.extensionUri, log);
  projects = new Projects(log, connection);
  const current = projects;
  const contextPreviews = new ContextPreviewProvider();
  const dashboard = new DashboardViewProvider(
    context.extensionUri,
    current,
    hostIntents(current, contextPreviews),
    log,
  );
  const rejects = new RejectsDocumentProvider(current);
  current.beforeCatchUp = () => dashboard.whenReady();
  const memoryDocuments = new MemoryDocumentProvider(current);
  const memoryServers = new MemoryServers(context.extensionUri, current, connection, log);
  memoryServers.register();
  const profiler = new HostProfiler(context.extensionUri.fsPath, context.logUri.fsPath, log);
  const commands: CommandTable = {
    ...new ProjectCommands(current, connection, log, contextPreviews).table(),
    ...new MemoryCommands(current, memoryDocuments, log).table(),
    ...memoryServers.table(),
    ...profiler.table(),
  };
  // From activation on, for a slow start (and the footprint benchmark's catch-up figures).
  if (process.env.CONTEXT_DECK_PROFILE_STARTUP === '1') void profiler.start();

  context.subscriptions.push(
    dashboard,
    new GaugeStatusBar(current),
    new CompactWarningNotifier(current, log),
    rejects,
    vscode.window.registerWebviewViewProvider(DASHBOARD_VIEW_ID, dashboard),
    vscode.workspace.registerTextDocumentContentProvider(REJECTS_SCHEME, rejects),
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, connection.preview),
    vscode.workspace.registerTextDocumentContentProvider(CONTEXT_PREVIEW_SCHEME, contextPreviews),
    watchAgentSettings(() => current.refresh()),
    ...registerCommands(commands, log),
    memoryDocuments,
    memoryServers,
    profiler,
    vscode.workspace.registerTextDocumentContentProvider(MEMORY_SCHEME, memoryDocuments),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void current.reopen()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('contextDeck.home')) {
        void current.reopen().then(() => connection.ensureRecorder(current.home));
      } else if (event.affectsConfiguration('contextDeck.ingest.pollIntervalSeconds')) current.restartPoll();
      if (
        event.affectsConfiguration('contextDeck.contextWindow') ||
        event.affectsConfiguration('contextDeck.agentContextWindows')
      )
        for (const live of current.all) live.gauge.settingsChanged();
      if (event.affectsConfiguration('contextDeck.history.detailDays'))
        for (const live of current.all) void live.exclusive(() => live.ingest.foldOldHistory(true));
    }),
  );

  // Opening engines loads sql.js and snapshots: it waits until the dashboard (when a click on it activated
  // us) has painted, since the webview's resources come through this same busy extension host.
  // The stable recorder copy is refreshed after each extension update, so existing hooks run the new one.
  void dashboard.whenReady().then(async () => {
    await current.reopen();
    connection.ensureRecorder(current.home);
    memoryServers.ensureStableCopy(current.home);
  });
}

/** sql.js's first statements compile on a worker (see ProjectEngine.warmUp) while the view comes up. */
function warmUpDatabaseCode(log: Log): void {
  const worker = bundledScript('sqlWarmUpWorker.js');
  if (!worker) return;
  const started = performance.now();
  void ProjectEngine.warmUp(worker).then((warm) =>
    warm
      ? log.info(
          `sql.js's code compiled on a warm-up worker in ${Math.round(performance.now() - started)} ms`,
        )
      : log.warn(
          "sql.js's warm-up worker did not finish; its first statements compile on the extension host's thread",
        ),
  );
}

/**
 * Connection state follows edits of every agent's hook files, in each workspace folder and in the user's
 * home (the adapters say where: agents/index.ts `hookSettingsFiles`); folders added later are watched too.
 */
function watchAgentSettings(onChange: () => void): vscode.Disposable {
  let watchers: vscode.Disposable[] = [];
  const watch = () => {
    for (const watcher of watchers) watcher.dispose();
    const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const files = new Set(roots.flatMap((root) => hookSettingsFiles(root, os.homedir())));
    watchers = [...files].map((file) => {
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)),
      );
      watcher.onDidChange(onChange);
      watcher.onDidCreate(onChange);
      watcher.onDidDelete(onChange);
      return watcher;
    });
  };
  watch();
  const folders = vscode.workspace.onDidChangeWorkspaceFolders(watch);
  return new vscode.Disposable(() => {
    folders.dispose();
    for (const watcher of watchers) watcher.dispose();
  });
}

/** Close every engine: each saves its snapshot and releases its writer lock for the next window. */
export async function deactivate(): Promise<void> {
  const closing = projects;
  projects = undefined;
  await closing?.shutdown();
}
