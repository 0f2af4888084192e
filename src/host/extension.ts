import * as vscode from 'vscode';
import { Commands } from './commands';
import { DASHBOARD_VIEW_ID, DashboardViewProvider } from './dashboardView';
import { Log } from './log';
import { Projects } from './projects';
import { REJECTS_SCHEME, RejectsDocumentProvider } from './rejectsDocument';

let projects: Projects | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  context.subscriptions.push(log);
  log.info(`activating Context Deck ${String(context.extension.packageJSON.version)}`);

  projects = new Projects(log);
  const current = projects;
  const commands = new Commands(current, log);
  const dashboard = new DashboardViewProvider(context.extensionUri, current, commands, log);
  const rejects = new RejectsDocumentProvider(current);
  current.beforeCatchUp = () => dashboard.whenReady();

  context.subscriptions.push(
    dashboard,
    rejects,
    vscode.window.registerWebviewViewProvider(DASHBOARD_VIEW_ID, dashboard),
    vscode.workspace.registerTextDocumentContentProvider(REJECTS_SCHEME, rejects),
    ...commands.register(),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void current.reopen()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('contextDeck.home')) void current.reopen();
      else if (event.affectsConfiguration('contextDeck.ingest.pollIntervalSeconds')) current.restartPoll();
    }),
  );

  // Opening engines loads sql.js and snapshots; do it after activation returns so the window stays responsive.
  void current.reopen();
}

/** Close every engine: each saves its snapshot and releases its writer lock for the next window. */
export async function deactivate(): Promise<void> {
  const closing = projects;
  projects = undefined;
  await closing?.shutdown();
}
