import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { yieldToHost } from '../../engine';
import type { HostMessage } from '../../shared/protocol';
import type { Log } from '../editor/log';
import { type DashboardIntents, type Intent, routeDashboardMessage, safePreview } from './dashboardIntents';
import type { PageIntent } from './intentHandlers';
import { type MemoryRequest, memoryView } from '../views/memoryView';
import type { Projects } from '../project/projects';

/** Full state is resent at most this often while engines change (a long catch-up changes them per chunk). */
const STATE_THROTTLE_MS = 250;
/** How many rejected lines the dashboard lists. */
const REJECTS_SHOWN = 200;

/**
 * The sidebar dashboard. It sends nothing until the webview says `ready` (the page may be reloaded whenever
 * the view is hidden and shown again, and each load says `ready` again), then full state snapshots.
 */
export class DashboardViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private lastSentAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readyWaiters: Array<() => void> = [];
  /** The version of each project's tools last sent: the big list goes only when it changed. */
  private readonly sentTools = new Map<string, number>();
  /** Each project's Memory section search (box and type filters), answered again when the memory changes. */
  private readonly memoryRequests = new Map<string, MemoryRequest>();
  private readonly sentMemory = new Map<string, string>();
  private readonly intents: DashboardIntents;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly projects: Projects,
    hostIntents: Omit<DashboardIntents, PageIntent>,
    private readonly log: Log,
  ) {
    this.intents = {
      ...hostIntents,
      ready: () => this.pageReady(),
      showRejects: ({ projectId }) => this.sendRejects(projectId),
      memorySearch: (message) => this.memorySearch(message),
    };
    this.disposables.push(projects.onDidChange(() => this.scheduleState()));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const roots = [
      vscode.Uri.joinPath(this.extensionUri, 'dist'),
      vscode.Uri.joinPath(this.extensionUri, 'media'),
    ];
    view.webview.options = { enableScripts: true, localResourceRoots: roots };
    view.webview.html = this.html(view.webview);
    const subscriptions = [
      view.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.scheduleState();
      }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.view === view) {
        this.view = undefined;
        this.ready = false;
      }
    });
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const dist = (file: string) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', file)).toString();
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp};">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link href="${dist('codicon.css')}" rel="stylesheet" id="vscode-codicon-stylesheet">
  <link href="${dist('webview.css')}" rel="stylesheet">
  <title>Context Deck</title>
</head>
<body>
  <div id="root"></div>
  <script nonce="${nonce}" src="${dist('webview.js')}"></script>
</body>
</html>`;
  }

  private receive(raw: unknown): void {
    routeDashboardMessage(raw, this.intents, {
      ignored: (message) =>
        this.log.warn(`ignored an unknown message from the dashboard: ${safePreview(message)}`),
      failed: (type, error) => this.log.error(`dashboard action ${type} failed`, error),
    });
  }

  /** The page has (re)loaded: everything is sent again. */
  private pageReady(): void {
    this.ready = true;
    this.sentTools.clear();
    this.memoryRequests.clear();
    this.sentMemory.clear();
    this.sendState();
    this.readyWaiters.splice(0).forEach((wake) => wake());
  }

  /** The Memory section's search, answered now and again whenever the memory changes. */
  private memorySearch({ projectId, request, query, types }: Intent<'memorySearch'>): void {
    this.memoryRequests.set(projectId, { request, query, types });
    this.sendMemory(projectId);
  }

  private sendRejects(projectId: string): void {
    const live = this.projects.find(projectId);
    if (!live) return;
    try {
      const rejects = live.engine.rejects(REJECTS_SHOWN);
      this.post({ type: 'rejects', projectId, rejects, total: live.engine.counts().rejected });
    } catch (error) {
      this.log.error(`reading rejects of ${live.name} failed`, error);
    }
  }

  /** Leading-edge throttle: the first change goes out at once, a burst ends with one trailing update. */
  private scheduleState(): void {
    if (!this.view || !this.ready || this.timer) return;
    const wait = Math.max(0, this.lastSentAt + STATE_THROTTLE_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.sendState();
    }, wait);
  }

  private sendState(): void {
    // Before the projects are open, "Loading…" says more than an empty dashboard would.
    if (!this.view || !this.ready || !this.projects.opened) return;
    this.lastSentAt = Date.now();
    try {
      this.post({ type: 'state', state: this.projects.state() });
      this.sendTools();
      // The memory section's answer (a search, the counts) is a task of its own: with the state, the first
      // one held the extension host over 50 ms.
      void yieldToHost().then(() => this.sendMemory());
    } catch (error) {
      this.log.error('building dashboard state failed', error);
    }
  }

  /** Answer each project's Memory section search (all, or one project's new one) when the answer changed. */
  private sendMemory(onlyProjectId?: string): void {
    for (const [projectId, request] of this.memoryRequests) {
      if (onlyProjectId !== undefined && projectId !== onlyProjectId) continue;
      const live = this.projects.find(projectId);
      if (!live) continue;
      // A search at every progress update of a catch-up cost it a third of its time; it runs once at the end
      // (a search the user types still runs: onlyProjectId).
      if (live.ingest.progress && onlyProjectId === undefined) continue;
      try {
        const memory = memoryView(live.engine, request);
        const key = JSON.stringify(memory);
        if (this.sentMemory.get(projectId) === key) continue;
        this.sentMemory.set(projectId, key);
        this.post({ type: 'memory', projectId, memory });
      } catch (error) {
        this.log.error(`searching the memory of ${live.name} failed`, error);
      }
    }
  }

  /** Each project's ranked tools, when they changed since they were last sent to this page. */
  private sendTools(): void {
    for (const live of this.projects.all) {
      const version = live.tools.version;
      if (version === 0 || this.sentTools.get(live.id) === version) continue;
      this.sentTools.set(live.id, version);
      this.post({ type: 'tools', projectId: live.id, tools: live.tools.view() });
    }
  }

  private post(message: HostMessage): void {
    // postMessage resolves false when the view is gone; nothing to do then — `ready` will come again.
    void this.view?.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.error(`posting ${message.type} to the dashboard failed`, error);
    });
  }

  /**
   * Resolves once the webview has said `ready`; when the view has not been resolved within `notShownMs` it is
   * probably not visible, so don't wait for it. Never waits longer than `maxMs`.
   */
  whenReady(notShownMs = 1000, maxMs = 5000): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(notShown);
        clearTimeout(max);
        resolve();
      };
      const notShown = setTimeout(() => {
        if (!this.view) done();
      }, notShownMs);
      const max = setTimeout(done, maxMs);
      this.readyWaiters.push(done);
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposables.forEach((d) => d.dispose());
  }
}
