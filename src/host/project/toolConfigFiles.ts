/** The files that declare a project's tools, in the editor: watched for a rescan, and opened at a tool's entry. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { configLocations, type RankedTool } from '../../engine';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';

/**
 * Every file that declares tools for this project or its user, watched for a debounced rescan. The
 * user's folders are watched one by one: a recursive watch of all of ~/.claude would follow every
 * transcript write. Plugins are followed through their install list, which changes with each install,
 * update and removal.
 */
export function watchToolConfigs(projectRoot: string, changed: () => void, log: Log): vscode.Disposable[] {
  const locations = configLocations({ projectRoot });
  const root = vscode.Uri.file(projectRoot);
  const inClaudeDir = (...parts: string[]) => vscode.Uri.file(path.join(locations.claudeDir, ...parts));
  const patterns = [
    new vscode.RelativePattern(root, '.mcp.json'),
    new vscode.RelativePattern(root, '.claude/settings*.json'),
    new vscode.RelativePattern(root, '.claude/{skills,commands,agents}/**'),
    new vscode.RelativePattern(root, '{.vscode,.cursor}/mcp.json'),
    new vscode.RelativePattern(
      vscode.Uri.file(path.dirname(locations.claudeJson)),
      path.basename(locations.claudeJson),
    ),
    new vscode.RelativePattern(inClaudeDir(), 'settings.json'),
    new vscode.RelativePattern(inClaudeDir('skills'), '**'),
    new vscode.RelativePattern(inClaudeDir('commands'), '**'),
    new vscode.RelativePattern(inClaudeDir('agents'), '**'),
    new vscode.RelativePattern(inClaudeDir('plugins'), '*.json'),
  ];
  const watchers: vscode.Disposable[] = [];
  for (const pattern of patterns) {
    try {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      watcher.onDidChange(changed);
      watcher.onDidCreate(changed);
      watcher.onDidDelete(changed);
      watchers.push(watcher);
    } catch (error) {
      log.warn(`cannot watch ${pattern.baseUri.fsPath}/${pattern.pattern}: ${shortMessage(error)}`);
    }
  }
  return watchers;
}

/** Open the file that declares a tool at its entry; a tool only seen in use opens its server's. */
export async function openToolSource(
  name: string,
  found: { tool: RankedTool; parent?: RankedTool } | undefined,
): Promise<void> {
  if (!found) return;
  const declared = found.tool.source !== null ? found.tool : found.parent;
  if (!declared || declared.source === null) {
    void vscode.window.showInformationMessage(
      `No file to open: ${name} was found in the agent's tool calls, and no config file of this project declares it.`,
    );
    return;
  }
  const line = Math.max(0, (declared.line ?? 1) - 1);
  let document: vscode.TextDocument;
  try {
    document = await vscode.workspace.openTextDocument(vscode.Uri.file(declared.source));
  } catch (error) {
    void vscode.window.showWarningMessage(
      `Context Deck could not open ${declared.source}: ${shortMessage(error)}`,
    );
    return;
  }
  const entry = document.lineAt(Math.min(line, document.lineCount - 1));
  await vscode.window.showTextDocument(document, {
    selection: new vscode.Range(
      entry.lineNumber,
      entry.firstNonWhitespaceCharacterIndex,
      entry.lineNumber,
      entry.range.end.character,
    ),
    preview: true,
  });
}
