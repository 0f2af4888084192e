/** Parsing one line of the event log into a hook payload, or a reason it can't be one. */
import { redactText, sliceSafe, unescapeJson } from '../redact';

/** The single key under which the recorder adds its own fields to an agent's payload. */
export const RECORDER_KEY = '_cd';

/** Longer lines are rejected: the recorder caps oversized fields far below this. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** No hook payload nests this deep; deeper input would only endanger recursive consumers. */
const MAX_NESTING = 256;

export type EventPayload = Record<string, unknown>;

export type LineResult = { ok: true; payload: EventPayload } | { ok: false; reason: string };

export interface RecorderFields {
  /** When the recorder received the payload (ISO 8601 or epoch ms). */
  ts?: string | number;
  agent?: string;
  v?: string;
  /** Why the recorder could not keep the payload as the agent sent it (cut short, too large, not JSON). */
  error?: string;
}

/** The `error` of a hook run with nothing on stdin: nothing was lost, so no project shows it. */
export const EMPTY_INPUT = 'empty input';

function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    if (node !== null && typeof node === 'object') {
      for (const child of Object.values(node)) {
        if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}

/** Counts `{` and `[` up to `limit` (inside strings too: an over-count only costs the exact check). */
function countOpenings(text: string, limit: number): number {
  let count = 0;
  for (let i = text.indexOf('{'); i >= 0 && count < limit; i = text.indexOf('{', i + 1)) count++;
  for (let i = text.indexOf('['); i >= 0 && count < limit; i = text.indexOf('[', i + 1)) count++;
  return count;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** `text` is one complete line without its newline, already known to be valid UTF-8. */
export function parseEventLine(text: string): LineResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `not a JSON object but ${describeType(value)}` };
  }
  // Nesting deeper than the limit needs at least that many opening brackets; most lines have a few dozen.
  if (
    text.length > MAX_NESTING * 2 &&
    countOpenings(text, MAX_NESTING) >= MAX_NESTING &&
    nestingExceeds(value, MAX_NESTING)
  ) {
    return { ok: false, reason: `nested deeper than ${MAX_NESTING} levels` };
  }
  return { ok: true, payload: value as EventPayload };
}

/** A short, plain-text excerpt of a rejected line for the user to recognise it, its secrets redacted. */
export function sampleOf(text: string, max = 160): string {
  // Redacted as the JSON it may be, looking a little past the cut so that a secret straddling it is whole.
  const start = redactText(unescapeJson(sliceSafe(text, max + 1024))).text;
  // Control characters (binary junk) are shown as U+FFFD so the sample stays readable.
  // eslint-disable-next-line no-control-regex
  const clean = start.slice(0, max * 2).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '\ufffd');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

export function recorderFields(payload: EventPayload): RecorderFields {
  const fields = payload[RECORDER_KEY];
  return fields !== null && typeof fields === 'object' && !Array.isArray(fields)
    ? (fields as RecorderFields)
    : {};
}

/** Epoch ms from an ISO string or a number; undefined when unusable. */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  return undefined;
}

export function stringField(payload: EventPayload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value : undefined;
}
