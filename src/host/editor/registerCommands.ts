import * as vscode from 'vscode';
import type { Log } from './log';
import { shortMessage } from '../views/errorText';
import { type CommandId, type CommandTable, VSCODE_COMMANDS } from './commandIds';

/** Register every command; a failure is logged and shown, never thrown at the caller (a menu, a button). */
export function registerCommands(table: CommandTable, log: Log): vscode.Disposable[] {
  return Object.entries(table).map(([id, run]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (error) {
        log.error(`${id} failed`, error);
        void vscode.window.showErrorMessage(`Context Deck: ${shortMessage(error)}`);
        return undefined;
      }
    }),
  );
}

/** Run one of this extension's commands, or one of VS Code's that the host uses. */
export function runCommand(
  id: CommandId | (typeof VSCODE_COMMANDS)[keyof typeof VSCODE_COMMANDS],
  ...args: unknown[]
): Thenable<unknown> {
  return vscode.commands.executeCommand(id, ...args);
}
