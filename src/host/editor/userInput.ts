import * as vscode from 'vscode';

/**
 * When the user last typed or moved the cursor in an editor. Saves wait for a pause in typing
 * (ProjectEngine's `lastInputAt`): copying a year of history out of sql.js holds the host for a moment.
 */
export class UserInput implements vscode.Disposable {
  private at = 0;
  private readonly listeners = [
    vscode.workspace.onDidChangeTextDocument((change) => {
      if (change.contentChanges.length > 0) this.at = Date.now();
    }),
    vscode.window.onDidChangeTextEditorSelection(() => {
      this.at = Date.now();
    }),
  ];

  readonly lastInputAt = (): number => this.at;

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
  }
}
