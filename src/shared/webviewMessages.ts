import { declaresType } from './messageTable';
import { type AdviceActionKind, WEBVIEW_MESSAGES, type WebviewMessage } from './protocol';
import { isToolScope } from './tools';

const ADVICE_ACTIONS: readonly AdviceActionKind[] = [
  'compact',
  'closeFile',
  'disableServer',
  'pin',
  'dismiss',
];

/** A string of at most `max` characters. */
function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

/**
 * The webview is less trusted than the host: only well-formed members of the WebviewMessage union are
 * accepted, rebuilt from their known fields (anything else the object carries is dropped).
 */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const message = raw as Record<string, unknown>;
  if (!declaresType(WEBVIEW_MESSAGES, message.type)) return undefined;
  switch (message.type) {
    case 'ready':
    case 'ingestNow':
    case 'openEventLog':
    case 'openFolder':
      return { type: message.type };
    case 'showRejects':
    case 'connect':
    case 'disconnect':
    case 'importHistory':
    case 'adviceUndo':
    case 'previewContext':
      return typeof message.projectId === 'string'
        ? { type: message.type, projectId: message.projectId }
        : undefined;
    case 'adviceAction':
      return typeof message.projectId === 'string' &&
        isText(message.itemId, 4096) &&
        ADVICE_ACTIONS.includes(message.action as AdviceActionKind)
        ? {
            type: 'adviceAction',
            projectId: message.projectId,
            itemId: message.itemId,
            action: message.action as AdviceActionKind,
          }
        : undefined;
    case 'openToolSource':
      return typeof message.projectId === 'string' && isText(message.name, 1000) && isToolScope(message.scope)
        ? {
            type: 'openToolSource',
            projectId: message.projectId,
            name: message.name,
            scope: message.scope,
          }
        : undefined;
    case 'openContextItem':
      return typeof message.projectId === 'string' && isText(message.itemId, 4096)
        ? { type: 'openContextItem', projectId: message.projectId, itemId: message.itemId }
        : undefined;
    case 'setServerEnabled':
      return typeof message.projectId === 'string' &&
        isText(message.server, 1000) &&
        typeof message.enabled === 'boolean'
        ? {
            type: 'setServerEnabled',
            projectId: message.projectId,
            server: message.server,
            enabled: message.enabled,
          }
        : undefined;
    case 'memorySearch':
      return typeof message.projectId === 'string' &&
        typeof message.request === 'number' &&
        Number.isSafeInteger(message.request) &&
        isText(message.query, 1000) &&
        Array.isArray(message.types) &&
        message.types.length <= 20 &&
        message.types.every((type) => isText(type, 40))
        ? {
            type: 'memorySearch',
            projectId: message.projectId,
            request: message.request,
            query: message.query,
            types: message.types as string[],
          }
        : undefined;
    case 'openObservation':
      return typeof message.projectId === 'string' && isText(message.id, 64)
        ? { type: 'openObservation', projectId: message.projectId, id: message.id }
        : undefined;
    case 'searchMemory':
      return typeof message.projectId === 'string' && isText(message.query, 1000)
        ? { type: 'searchMemory', projectId: message.projectId, query: message.query }
        : undefined;
    case 'copyText':
      return isText(message.text, 100_000) ? { type: 'copyText', text: message.text } : undefined;
    default: {
      // Every declared type has its case above: a type added to WEBVIEW_MESSAGES fails to compile until then.
      const unchecked: never = message.type;
      void unchecked;
      return undefined;
    }
  }
}
