import * as vscode from 'vscode';

export const CONTEXT_PREVIEW_SCHEME = 'context-deck-context';

/**
 * Serves the read-only previews: the next session's context, and a tool result as the model received it. Each
 * is held under its URI, set just before it is opened.
 */
export class ContextPreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Open `text` read-only in a preview tab named `title`, under the project's name (`query` tells two apart). */
  async show(project: string, title: string, text: string, query?: string): Promise<void> {
    const uri = vscode.Uri.from({ scheme: CONTEXT_PREVIEW_SCHEME, path: `/${project}/${title}`, query });
    this.texts.set(uri.toString(), text);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
  }
}
