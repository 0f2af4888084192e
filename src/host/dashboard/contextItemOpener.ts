/**
 * Opens what a context item is: the file the agent read (at the lines it read), the MCP server's config
 * entry, or a read-only document with the tool result exactly as the model received it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type BreakdownItem, toolResultText } from '../../engine';
import type { LiveProject } from '../project/liveProject';
import { shortMessage } from '../views/errorText';
import type { ContextPreviewProvider } from '../documents/contextPreview';

async function openFileAt(file: string, line?: number, endLine?: number): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const first = Math.min(Math.max(0, (line ?? 1) - 1), document.lineCount - 1);
  const last = Math.min(Math.max(first, (endLine ?? line ?? 1) - 1), document.lineCount - 1);
  await vscode.window.showTextDocument(document, {
    selection: new vscode.Range(first, 0, last, document.lineAt(last).range.end.character),
    preview: true,
  });
}

async function openToolResult(
  live: LiveProject,
  item: BreakdownItem,
  toolUseId: string,
  previews: ContextPreviewProvider,
): Promise<void> {
  const transcript = live.gauge.reading()?.transcript;
  const text = transcript ? await toolResultText(transcript, toolUseId) : undefined;
  if (text === undefined) {
    void vscode.window.showInformationMessage(
      `Nothing to show: the result of ${item.label} is no longer in the transcript.`,
    );
    return;
  }
  const name = `${item.ref.tool ?? 'tool'} result — ${item.label}`
    .replace(/[\\/:*?"<>|\n]+/g, ' ')
    .slice(0, 120);
  await previews.show(live.name, `${name}.txt`, text, toolUseId);
}

export async function openContextItem(
  live: LiveProject,
  itemId: string,
  previews: ContextPreviewProvider,
): Promise<void> {
  const item = live.gauge.reading()?.breakdown.items.find((candidate) => candidate.id === itemId);
  if (!item) return;
  const { file, line, endLine, server, toolUseId } = item.ref;
  try {
    if (file) await openFileAt(path.resolve(live.engine.identity.mainRoot, file), line, endLine);
    else if (server) await live.tools.openSource(`mcp__${server}__*`);
    else if (toolUseId) await openToolResult(live, item, toolUseId, previews);
  } catch (error) {
    void vscode.window.showWarningMessage(`Could not open ${item.label}: ${shortMessage(error)}`);
  }
}
