import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { SESSION_CONTEXT_BUDGET, TOOL_SECTION_BUDGET, eventsDir } from '../../engine';
import type { AgentConnection } from '../editor/agentConnection';
import type { ContextPreviewProvider } from '../documents/contextPreview';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import type { Projects } from '../project/projects';
import { chooseProject } from './chooseProject';
import { RejectsDocumentProvider } from '../documents/rejectsDocument';
import { asString, type CommandTable, VSCODE_COMMANDS } from '../editor/commandIds';
import { runCommand } from '../editor/registerCommands';
import { importSummary } from '../views/importSummary';

/** The commands about the open projects: reading the log, rebuilding, importing, connecting agents. */
export class ProjectCommands {
  constructor(
    private readonly projects: Projects,
    private readonly connection: AgentConnection,
    private readonly log: Log,
    private readonly contextPreviews: ContextPreviewProvider,
  ) {}

  table(): CommandTable<
    | 'contextDeck.showDashboard'
    | 'contextDeck.ingestNow'
    | 'contextDeck.showRejects'
    | 'contextDeck.rebuildDatabase'
    | 'contextDeck.openEventLog'
    | 'contextDeck.previewSessionContext'
    | 'contextDeck.importHistory'
    | 'contextDeck.connectAgent'
    | 'contextDeck.disconnectAgent'
  > {
    return {
      'contextDeck.showDashboard': () => runCommand(VSCODE_COMMANDS.focusDashboard),
      'contextDeck.ingestNow': () => this.ingestNow(),
      'contextDeck.showRejects': (projectId) => this.showRejects(asString(projectId)),
      'contextDeck.rebuildDatabase': () => this.rebuildDatabase(),
      'contextDeck.openEventLog': () => this.openEventLog(),
      'contextDeck.previewSessionContext': (projectId) => this.previewSessionContext(asString(projectId)),
      'contextDeck.importHistory': (projectId) => this.importHistory(asString(projectId)),
      'contextDeck.connectAgent': (projectId) => this.connectAgent(asString(projectId)),
      'contextDeck.disconnectAgent': (projectId) => this.disconnectAgent(asString(projectId)),
    };
  }

  async ingestNow(): Promise<void> {
    if (this.projects.all.length === 0) {
      void vscode.window.showInformationMessage('Context Deck: open a folder to record its agent activity.');
      return;
    }
    await this.projects.ingestAll();
  }

  async showRejects(projectId?: string): Promise<void> {
    const live = await chooseProject(this.projects, projectId, 'Show rejected lines of');
    if (!live) return;
    const doc = await vscode.workspace.openTextDocument(RejectsDocumentProvider.uriFor(live.id, live.name));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  async rebuildDatabase(): Promise<void> {
    const writers = this.projects.all.filter((live) => live.engine.role === 'writer');
    if (writers.length === 0) {
      void vscode.window.showInformationMessage(
        this.projects.all.length === 0
          ? 'Context Deck: no project is open.'
          : 'Context Deck: another VS Code window writes this project; rebuild it there.',
      );
      return;
    }
    const choice = await vscode.window.showWarningMessage(
      'Rebuild the Context Deck database from the event log?',
      {
        modal: true,
        detail:
          'The database is thrown away and every event is read again from the log, and agent history imported before is imported again. Nothing recorded is lost: the log is the truth. This can take a while for a long history.',
      },
      'Rebuild',
    );
    if (choice !== 'Rebuild') return;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Context Deck: rebuilding',
        cancellable: true,
      },
      async (progress, token) => {
        for (const live of writers) {
          if (token.isCancellationRequested) break;
          progress.report({ message: live.name });
          await live.ingest.rebuild(progress, token);
        }
      },
    );
    const counts = writers.map(
      (live) => `${live.name}: ${live.engine.counts().events.toLocaleString('en-US')} events`,
    );
    void vscode.window.showInformationMessage(`Context Deck rebuilt the database (${counts.join('; ')}).`);
  }

  async openEventLog(): Promise<void> {
    const dir = eventsDir(this.projects.home);
    fs.mkdirSync(dir, { recursive: true });
    const uri = vscode.Uri.file(dir);
    // revealFileInOS and openExternal only reach the user's file manager in a local desktop window; in a
    // browser or remote window the folder is on another machine, so show (and offer to copy) its path.
    if (vscode.env.uiKind === vscode.UIKind.Desktop && vscode.env.remoteName === undefined) {
      try {
        await runCommand(VSCODE_COMMANDS.revealFileInOS, uri);
        return;
      } catch (error) {
        this.log.warn(`revealFileInOS failed: ${shortMessage(error)}`);
      }
      if (await Promise.resolve(vscode.env.openExternal(uri)).catch(() => false)) return;
    }
    const copy = 'Copy Path';
    const choice = await vscode.window.showInformationMessage(`Context Deck event log: ${dir}`, copy);
    if (choice === copy) await vscode.env.clipboard.writeText(dir);
  }

  async previewSessionContext(projectId?: string): Promise<void> {
    const live = await chooseProject(this.projects, projectId, 'Preview the next session context of');
    const context = live && (await live.nextContext.refresh());
    if (!live || !context) return;
    // Exactly what the next session receives, with its character counts in the tab title.
    const title = `Next session context — ${context.chars.toLocaleString('en-US')} of ${SESSION_CONTEXT_BUDGET.toLocaleString('en-US')} chars, tools ${context.toolsChars} of ${TOOL_SECTION_BUDGET}.md`;
    await this.contextPreviews.show(live.name, title, context.text);
  }

  async importHistory(projectId?: string): Promise<void> {
    const live = await chooseProject(this.projects, projectId, 'Import agent history into');
    if (!live) return;
    if (live.engine.role !== 'writer') {
      void vscode.window.showInformationMessage(
        `Nothing imported: another VS Code window records ${live.name}; import its history there.`,
      );
      return;
    }
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Importing agent history of ${live.name}`,
        cancellable: true,
      },
      (progress, token) => live.importHistory(progress, token),
    );
    const { message, problems } = importSummary(result);
    if (!problems) {
      void vscode.window.showInformationMessage(message);
      return;
    }
    const choice = await vscode.window.showWarningMessage(message, 'Show Log');
    if (choice === 'Show Log') this.log.channel.show(true);
  }

  async connectAgent(projectId?: string): Promise<void> {
    const live = await chooseProject(this.projects, projectId, 'Connect an agent in');
    if (!live) return;
    if (await this.connection.connect(this.projects.home, live.engine.identity.mainRoot))
      this.projects.refresh();
  }

  async disconnectAgent(projectId?: string): Promise<void> {
    const live = await chooseProject(this.projects, projectId, 'Disconnect an agent in');
    if (!live) return;
    if (await this.connection.disconnect(this.projects.home, live.engine.identity.mainRoot))
      this.projects.refresh();
  }
}
