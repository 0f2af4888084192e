/**
 * Every edit Context Deck makes to another tool's settings (Claude Code's hooks, its `.mcp.json`): planned
 * first, a file that can't be parsed reported and left alone, the exact change shown (with the full diff
 * one click away) before anything is written, then written with a backup.
 */
import * as vscode from 'vscode';
import {
  readSettingsText,
  settingsBackupDir,
  SettingsParseError,
  writeSettingsWithBackup,
} from '../../engine';
import { VSCODE_COMMANDS } from './commandIds';
import { runCommand } from './registerCommands';
import type { Log } from './log';
import { shortMessage } from '../views/errorText';

export const PREVIEW_SCHEME = 'context-deck-preview';

/** A planned edit of another tool's settings file. */
export interface SettingsChangePlan {
  file: string;
  before: string | undefined;
  /** Undefined: the file is removed (connecting created it, and it holds nothing else). */
  after: string | undefined;
  changes: string[];
}

/** Proposed settings files, shown in a diff before anything is written. */
export class SettingsPreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  show(plan: SettingsChangePlan): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: plan.file, query: String(Date.now()) });
    this.texts.set(uri.toString(), plan.after ?? '');
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** Plans an edit; a file that can't be parsed is reported (with a way to open it) and left alone. */
export function planSettingsChange<T extends SettingsChangePlan>(
  file: string,
  make: (text: string | undefined) => T,
): T | undefined {
  try {
    return make(readSettingsText(file));
  } catch (error) {
    const open = 'Open File';
    void vscode.window
      .showErrorMessage(
        error instanceof SettingsParseError ? error.message : `${file}: ${shortMessage(error)}`,
        open,
      )
      .then((choice) => {
        if (choice === open) void vscode.window.showTextDocument(vscode.Uri.file(file));
      });
    return undefined;
  }
}

/** Writes a planned edit, the previous version backed up under `home`; returns the backup. */
export function writeSettingsChange(plan: SettingsChangePlan, log: Log, home: string): string | undefined {
  const backup = writeSettingsWithBackup(plan.file, plan.after, home);
  log.info(`${plan.file}: ${plan.changes.join('; ')}${backup ? ` (backup ${backup})` : ''}`);
  return backup;
}

/**
 * Says exactly what will change before anything is written, with the full diff one click away. Every edit
 * of another tool's settings (hooks, MCP servers) goes through here.
 */
export async function confirmSettingsChange(
  preview: SettingsPreviewProvider,
  plan: SettingsChangePlan,
  action: string,
  question: string,
  home: string,
  notes: string[] = [],
): Promise<boolean> {
  const showDiff = 'Show Changes';
  const detail = [
    `${plan.file} will change:`,
    ...plan.changes.map((change) => `• ${change}`),
    '',
    ...notes,
    ...(notes.length > 0 ? [''] : []),
    plan.before === undefined
      ? 'The file does not exist yet and will be created.'
      : plan.after === undefined
        ? `The file is removed; a backup is written to ${settingsBackupDir(home)} first.`
        : `A backup of the file is written to ${settingsBackupDir(home)} first. Nothing else in it changes.`,
  ].join('\n');
  const choice = await vscode.window.showInformationMessage(
    question,
    { modal: true, detail },
    action,
    showDiff,
  );
  if (choice === action) return true;
  if (choice !== showDiff) return false;
  const before =
    plan.before === undefined
      ? vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `${plan.file}.new` })
      : vscode.Uri.file(plan.file);
  await runCommand(VSCODE_COMMANDS.diff, before, preview.show(plan), `${action}: proposed changes`);
  return (
    (await vscode.window.showInformationMessage(`${action} with these changes to ${plan.file}?`, action)) ===
    action
  );
}
