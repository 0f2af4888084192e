/** The dashboard's intents that act on the host: each one a command, or the one call that does it. */
import * as vscode from 'vscode';
import { visibleLine } from '../../shared/visibleText';
import { VSCODE_COMMANDS } from '../editor/commandIds';
import { runCommand } from '../editor/registerCommands';
import { openContextItem } from './contextItemOpener';
import type { ContextPreviewProvider } from '../documents/contextPreview';
import type { Projects } from '../project/projects';
import type { DashboardIntents } from './dashboardIntents';

/** The intents the dashboard view answers itself, with a message back to the page. */
export type PageIntent = 'ready' | 'showRejects' | 'memorySearch';

export function hostIntents(
  projects: Projects,
  contextPreviews: ContextPreviewProvider,
): Omit<DashboardIntents, PageIntent> {
  const project = (projectId: string) => projects.find(projectId);
  return {
    ingestNow: () => runCommand('contextDeck.ingestNow'),
    openEventLog: () => runCommand('contextDeck.openEventLog'),
    connect: ({ projectId }) => runCommand('contextDeck.connectAgent', projectId),
    disconnect: ({ projectId }) => runCommand('contextDeck.disconnectAgent', projectId),
    importHistory: ({ projectId }) => runCommand('contextDeck.importHistory', projectId),
    previewContext: ({ projectId }) => runCommand('contextDeck.previewSessionContext', projectId),
    openObservation: ({ projectId, id }) => runCommand('contextDeck.openObservation', { projectId, id }),
    searchMemory: ({ projectId, query }) => runCommand('contextDeck.searchMemory', projectId, query),
    openFolder: () => runCommand(VSCODE_COMMANDS.openFolder),
    copyText: ({ text }) => copyText(text),
    openToolSource: ({ projectId, name, scope }) => project(projectId)?.tools.openSource(name, scope),
    setServerEnabled: ({ projectId, server, enabled }) =>
      project(projectId)?.tools.setServerEnabled(server, enabled),
    openContextItem: ({ projectId, itemId }) => {
      const live = project(projectId);
      return live && openContextItem(live, itemId, contextPreviews);
    },
    adviceAction: ({ projectId, itemId, action }) => {
      const live = project(projectId);
      return live && projects.advice.act(live, itemId, action);
    },
    adviceUndo: ({ projectId }) => {
      const live = project(projectId);
      if (live) projects.advice.undo(live);
    },
  };
}

/** A tool's name or a path, copied as the one line the dashboard shows: pasted into a shell, it can't run more. */
async function copyText(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(visibleLine(text));
  void vscode.window.setStatusBarMessage('Context Deck: copied to the clipboard', 2000);
}
