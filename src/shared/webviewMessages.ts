import { type MessageOf, declaresType } from './messageTable';
import { type AdviceActionKind, WEBVIEW_MESSAGES, type WebviewMessage } from './protocol';
import { isToolScope } from './tools';

type WebviewMessageType = keyof typeof WEBVIEW_MESSAGES;

/** The fields a message of `type` carries besides its `type`. */
type FieldsOf<T extends WebviewMessageType> = Omit<MessageOf<typeof WEBVIEW_MESSAGES, T>, 'type'>;

/** A check of a field's value; as a type guard it says what the field must hold. */
type FieldCheck<Value> = (value: unknown) => value is Value;

const ADVICE_ACTIONS: readonly AdviceActionKind[] = [
  'compact',
  'closeFile',
  'disableServer',
  'pin',
  'dismiss',
];

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

function isSafeInteger(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function isAdviceAction(value: unknown): value is AdviceActionKind {
  return ADVICE_ACTIONS.includes(value as AdviceActionKind);
}

/** A string of at most `max` characters. */
function textOfAtMost(max: number): FieldCheck<string> {
  return (value): value is string => typeof value === 'string' && value.length <= max;
}

/** At most `count` strings of at most `max` characters each. */
function textsOfAtMost(count: number, max: number): FieldCheck<string[]> {
  const isText = textOfAtMost(max);
  return (value): value is string[] => Array.isArray(value) && value.length <= count && value.every(isText);
}

/**
 * Every field of every message the page may send, with its check: a message type or a field of one
 * (WEBVIEW_MESSAGES) without a check here fails to compile.
 */
const FIELD_CHECKS: {
  [T in WebviewMessageType]: { [F in keyof FieldsOf<T>]-?: FieldCheck<FieldsOf<T>[F]> };
} = {
  ready: {},
  ingestNow: {},
  openEventLog: {},
  openFolder: {},
  showRejects: { projectId: isString },
  connect: { projectId: isString },
  disconnect: { projectId: isString },
  importHistory: { projectId: isString },
  adviceUndo: { projectId: isString },
  previewContext: { projectId: isString },
  adviceAction: { projectId: isString, itemId: textOfAtMost(4096), action: isAdviceAction },
  openToolSource: { projectId: isString, name: textOfAtMost(1000), scope: isToolScope },
  openContextItem: { projectId: isString, itemId: textOfAtMost(4096) },
  setServerEnabled: { projectId: isString, server: textOfAtMost(1000), enabled: isBoolean },
  memorySearch: {
    projectId: isString,
    request: isSafeInteger,
    query: textOfAtMost(1000),
    types: textsOfAtMost(20, 40),
  },
  openObservation: { projectId: isString, id: textOfAtMost(64) },
  searchMemory: { projectId: isString, query: textOfAtMost(1000) },
  copyText: { text: textOfAtMost(100_000) },
};

/**
 * The webview is less trusted than the host: only well-formed members of the WebviewMessage union are
 * accepted, rebuilt from their known fields (anything else the object carries is dropped).
 */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const message = raw as Record<string, unknown>;
  if (!declaresType(WEBVIEW_MESSAGES, message.type)) return undefined;
  const checks: Record<string, (value: unknown) => boolean> = FIELD_CHECKS[message.type];
  const parsed: Record<string, unknown> = { type: message.type };
  for (const [field, check] of Object.entries(checks)) {
    if (!check(message[field])) return undefined;
    parsed[field] = message[field];
  }
  return parsed as WebviewMessage;
}
