/**
 * VS Code's Restricted Mode (an untrusted workspace, e.g. a repository just cloned): Context Deck still reads
 * and shows everything, bounded (see boundedRead.ts), but writes nothing an agent would act on - no hooks
 * connected, no memory server added or removed, no MCP server switched on or off - and types nothing into
 * a terminal. Trusting the workspace lifts the limits at once.
 */
import * as vscode from 'vscode';
import { VSCODE_COMMANDS } from './commandIds';
import { runCommand } from './registerCommands';

/** Whether `action` may run here; when not, says why and offers to manage trust. */
export function allowedInWorkspace(action: string): boolean {
  if (vscode.workspace.isTrusted) return true;
  const manage = 'Manage Workspace Trust';
  const message = `Context Deck: ${action} is not available in Restricted Mode, because this workspace is not trusted. Trust the workspace to allow it.`;
  void vscode.window
    .showInformationMessage(message, manage)
    .then((choice) => choice === manage && runCommand(VSCODE_COMMANDS.manageTrust));
  return false;
}
