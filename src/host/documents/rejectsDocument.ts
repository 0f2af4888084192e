import * as vscode from 'vscode';
import type { Projects } from '../project/projects';
import { renderRejects } from '../views/rejectsText';

export const REJECTS_SCHEME = 'context-deck';
/** The document lists at most this many lines (newest first); the header says how many there are in all. */
const REJECTS_LISTED = 1000;
/** Documents are re-rendered at most this often while the database changes. */
const REFRESH_THROTTLE_MS = 1000;

/** The read-only document `context-deck:/rejected-lines-<name>.log?<project id>` behind "Show Rejected Event Lines". */
export class RejectsDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly shown = new Map<string, vscode.Uri>();
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly projects: Projects) {
    this.subscriptions.push(
      projects.onDidChange(() => this.scheduleRefresh()),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === REJECTS_SCHEME) this.shown.delete(doc.uri.toString());
      }),
    );
  }

  static uriFor(projectId: string, projectName: string): vscode.Uri {
    const safeName = projectName.replace(/[^\w.-]+/g, '_') || 'project';
    return vscode.Uri.from({
      scheme: REJECTS_SCHEME,
      path: `/rejected-lines-${safeName}.log`,
      query: projectId,
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    this.shown.set(uri.toString(), uri);
    const live = this.projects.find(uri.query);
    if (!live) return 'This project is not open in this window any more.\n';
    const total = live.engine.counts().rejected;
    return renderRejects(live.name, total, live.engine.rejects(REJECTS_LISTED));
  }

  private scheduleRefresh(): void {
    if (this.shown.size === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      for (const uri of this.shown.values()) this.changed.fire(uri);
    }, REFRESH_THROTTLE_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}
