import type * as vscode from 'vscode';

export const CONTEXT_PREVIEW_SCHEME = 'context-deck-context';

/**
 * Serves the read-only previews: the next session's context, and a tool result as the model received it. Each
 * is put in `texts` under its URI just before it is opened.
 */
export class ContextPreviewProvider implements vscode.TextDocumentContentProvider {
  readonly texts = new Map<string, string>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
