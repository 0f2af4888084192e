/**
 * What the dashboard asks of the host, routed by one table: each message type of the page (WEBVIEW_MESSAGES in
 * src/shared/protocol.ts) to its handler. The table's type lists every type (one missing fails to compile, as
 * the switch's `never` did); messages are checked at runtime first (parseWebviewMessage). No VS Code here: the
 * tests pass their own handlers.
 */
import type { MessageHandlers, MessageOf } from '../../shared/messageTable';
import type { WEBVIEW_MESSAGES, WebviewMessage } from '../../shared/protocol';
import { parseWebviewMessage } from '../../shared/webviewMessages';

export type IntentType = WebviewMessage['type'];
export type Intent<T extends IntentType> = MessageOf<typeof WEBVIEW_MESSAGES, T>;

/** One handler per message type; what it returns (a promise, a value) is awaited for its failure only. */
export type DashboardIntents = MessageHandlers<typeof WEBVIEW_MESSAGES>;

/** Where the router reports what it drops and what fails. */
interface IntentReport {
  ignored(raw: unknown): void;
  failed(type: IntentType, error: unknown): void;
}

/** Check a message from the page and run its handler; a handler's failure is reported, never thrown. */
export function routeDashboardMessage(raw: unknown, intents: DashboardIntents, report: IntentReport): void {
  const message = parseWebviewMessage(raw);
  if (!message) {
    report.ignored(raw);
    return;
  }
  const handler = intents[message.type] as (message: WebviewMessage) => unknown;
  try {
    void Promise.resolve(handler(message)).catch((error: unknown) => report.failed(message.type, error));
  } catch (error) {
    report.failed(message.type, error);
  }
}

/** A raw message, short enough for a log line. */
export function safePreview(raw: unknown): string {
  try {
    return JSON.stringify(raw)?.slice(0, 200) ?? String(raw);
  } catch {
    return String(raw);
  }
}
