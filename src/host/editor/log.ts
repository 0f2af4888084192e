import * as vscode from 'vscode';

/**
 * The extension host is shared with every other extension: nothing of ours may throw out of an event handler
 * or leave a rejected promise. Every failure ends up here, in the "Context Deck" output channel.
 */
export class Log implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('Context Deck', { log: true });

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(context: string, error: unknown): void {
    this.channel.error(`${context}: ${describe(error)}`);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
