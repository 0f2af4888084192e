/**
 * Turns the bytes a hook received on stdin into the one event-log line the recorder appends: the agent's
 * payload as sent, redacted and capped, plus the recorder's own fields under `_cd`.
 *
 * Cap scheme (sizes chosen far below the ingester's 16 MiB line limit so the log stays cheap to read):
 * - every string longer than STRING_CAP characters is cut to STRING_CAP and ends with
 *   `…[truncated: <original UTF-8 bytes> bytes in all]`;
 * - containers nested deeper than MAX_DEPTH are kept as their (cut, redacted) JSON text;
 * - then, while the whole line is over LINE_CAP bytes, the largest field is cut first: descending into the
 *   largest child as long as that child alone can absorb the excess; a string is shortened, a container
 *   becomes a string holding the start of its JSON text (with the same marker). The agent's identifying
 *   fields (event name, session, cwd, tool name and id...) are cut only when nothing else is left.
 * Every cut is listed in `_cd.capped` as `{path, bytes, kept, reason}` (`bytes`: the original UTF-8 size,
 * `kept`: characters kept, `reason`: length | nesting | line).
 */
import { normalisePayload, readPayload } from '../agents/payloads';
import type { EventKind } from '../agents/types';
import type { AgentId } from '../../shared/agents';
import { EMPTY_INPUT, RECORDER_KEY } from '../events/eventLine';
import {
  cutMarker,
  type CutNote,
  joinPath,
  redactAndCut,
  redactValue,
  sliceSafe,
  unescapeJson,
} from '../redact';
import { eventKey } from './duplicateEvents';

/** Longest string kept, in characters. */
export const STRING_CAP = 64 * 1024;
/** Largest line written, in bytes (newline excluded). */
export const LINE_CAP = 256 * 1024;
/** Input that can't be recorded as a JSON object keeps this many characters of its text. */
const UNPARSED_CAP = 4 * 1024;
/** Larger input is not parsed (only its start is kept). */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;
/**
 * Input with more JSON values than this is not parsed either: parsing costs memory per value, not per byte
 * (30 MB of `{},` took 2.6 GB). Real payloads are a few large strings and far fewer values.
 */
export const MAX_VALUES = 200_000;
/** In a record that could not keep the payload, each identifying field keeps at most this many characters. */
const IDENTIFYING_CHARS = 1024;
/** Hook payloads are shallow; deeper containers are kept as text (the ingester refuses nesting past 256). */
export const MAX_DEPTH = 64;
/** At most this many cuts are listed; the rest are counted in `_cd.cappedMore`. */
const MAX_CAP_NOTES = 50;

/** Fields that identify an event: cut only when nothing else is left to cut. */
const IDENTIFYING = new Set([
  'hook_event_name',
  'hookEventName',
  'session_id',
  'sessionId',
  'cwd',
  'transcript_path',
  'tool_name',
  'tool_use_id',
  'agent_id',
  'agent_type',
  'source',
  'model',
  'reason',
  'permission_mode',
  'duration_ms',
  'is_interrupt',
  'trigger',
  'prompt_id',
]);

export interface RecordInput {
  /** What stdin held (at most MAX_INPUT_BYTES of it). */
  data: Buffer;
  /** How many bytes stdin held in all. */
  totalBytes: number;
  /** Stdin was still open when the recorder stopped waiting. */
  timedOut?: boolean;
  /** Why stdin could not be read to its end, if it couldn't. */
  readError?: string;
  receivedAt: Date;
  /** The agent the hook command names (`--agent`), if it names one: a hint where a payload is ambiguous. */
  agent?: string;
  version: string;
  /** The spool file the payload was taken from (log/spool.ts), to tell whether it was logged already. */
  spool?: string;
}

export interface RecorderMeta {
  ts: string;
  /** The agent recognised from the payload (else the hint), as ingest will read it. */
  agent?: string;
  v: string;
  redactions?: number;
  capped?: CutNote[];
  cappedMore?: number;
  /** Set when the input could not be recorded as the agent's payload. */
  error?: string;
  /** The start of such input, redacted. */
  unparsed?: string;
  inputBytes?: number;
  timedOut?: true;
  /** The payload had its own `_cd` key, which ours replaced. */
  reservedKeyReplaced?: true;
  spool?: string;
}

export interface Recorded {
  /** The complete line, newline included. */
  line: string;
  /** The agent's name for the event, when the payload was an object that had one. */
  event?: string;
  /** What the event is, whichever agent sent it. */
  kind?: EventKind;
  agent?: AgentId;
  /** The payload's `cwd` when it had one. */
  cwd?: string;
  sessionId?: string;
  /** How a session started (`compact`: again, after a compaction). */
  source?: string;
  /** What tells copies of this event apart from other events, for agents that may run our hook twice. */
  duplicateKey?: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function jsonBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}

/** A record of input that can't be kept as the agent's payload: why, and the start of its text. */
function unparsedRecord(
  input: RecordInput,
  meta: RecorderMeta,
  error: string,
  text: string,
  fields: Record<string, unknown> = {},
): Recorded {
  const start = redactAndCut(unescapeJson(text), UNPARSED_CAP);
  meta.error = error;
  meta.inputBytes = input.totalBytes;
  if (text !== '') meta.unparsed = start.text;
  if (start.count > 0) meta.redactions = start.count;
  const event = normalisePayload(fields, input.agent);
  return {
    line: `${JSON.stringify({ ...fields, [RECORDER_KEY]: meta })}\n`,
    event: event?.name,
    kind: event?.kind,
    agent: event?.agent,
    cwd: event?.cwd ?? (typeof fields.cwd === 'string' ? fields.cwd : undefined),
    sessionId: event?.sessionId,
    source: event?.source,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether `data` holds more than `limit` JSON values (counting commas and openings outside strings), found
 * without parsing: strings are skipped with indexOf, and the count stops at the limit.
 */
function hasMoreValues(data: Buffer, limit: number): boolean {
  let count = 0;
  for (let i = 0; i < data.length;) {
    const quote = data.indexOf(QUOTE, i);
    const end = quote < 0 ? data.length : quote;
    for (; i < end; i++) {
      const c = data[i];
      if ((c === 0x2c || c === 0x7b || c === 0x5b) && ++count > limit) return true;
    }
    if (quote < 0) return false;
    // The string ends at the next quote not escaped by an odd run of backslashes.
    let close = quote;
    let slashes: number;
    do {
      close = data.indexOf(QUOTE, close + 1);
      if (close < 0) return false;
      for (slashes = 0; data[close - 1 - slashes] === BACKSLASH; slashes++);
    } while (slashes % 2 === 1);
    i = close + 1;
  }
  return false;
}

/** Build the line to append for one hook invocation. Never throws on any input. */
export function buildRecord(input: RecordInput): Recorded {
  const meta: RecorderMeta = { ts: input.receivedAt.toISOString(), agent: input.agent, v: input.version };
  if (meta.agent === undefined) delete meta.agent;
  if (input.timedOut) meta.timedOut = true;
  if (input.spool !== undefined) meta.spool = input.spool;
  let text = input.data.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  if (input.readError) return unparsedRecord(input, meta, `stdin unreadable: ${input.readError}`, text);
  if (input.totalBytes > input.data.length || input.data.length > MAX_INPUT_BYTES) {
    return unparsedRecord(
      input,
      meta,
      `input of ${input.totalBytes} bytes is over the ${MAX_INPUT_BYTES / 1024 / 1024} MiB limit: not parsed`,
      text,
    );
  }
  if (input.data.length > MAX_VALUES && hasMoreValues(input.data, MAX_VALUES)) {
    return unparsedRecord(input, meta, `input has more than ${MAX_VALUES} JSON values: not parsed`, text);
  }
  if (text.trim() === '') return unparsedRecord(input, meta, EMPTY_INPUT, text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // V8 quotes the start of the input in its message: keep only the reason, never the agent's text.
    const reason = (error as Error).message.replace(/,?\s*"[\s\S]*$/, '');
    return unparsedRecord(input, meta, `not JSON: ${reason}`, text);
  }
  if (!isContainer(parsed) || Array.isArray(parsed)) {
    return unparsedRecord(input, meta, `not a JSON object but ${describe(parsed)}`, text);
  }

  const source = parsed as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(source, RECORDER_KEY)) {
    delete source[RECORDER_KEY];
    meta.reservedKeyReplaced = true;
  }
  const redacted = redactValue(source, { maxStringLength: STRING_CAP, maxDepth: MAX_DEPTH });
  const payload = redacted.value;
  const cuts = redacted.cuts;
  // Recognised now so that the line says which agent sent it; ingest recognises again, with newer adapters.
  const { agent, event } = readPayload(payload, input.agent);
  meta.agent = agent ?? input.agent;
  if (meta.agent === undefined) delete meta.agent;
  if (redacted.count > 0) meta.redactions = redacted.count;

  const compose = () => {
    if (cuts.length > 0) {
      meta.capped = cuts.slice(0, MAX_CAP_NOTES);
      if (cuts.length > MAX_CAP_NOTES) meta.cappedMore = cuts.length - MAX_CAP_NOTES;
    }
    return JSON.stringify({ ...payload, [RECORDER_KEY]: meta });
  };
  let line = compose();
  for (let round = 0; round < 100; round++) {
    const size = Buffer.byteLength(line, 'utf8');
    if (size <= LINE_CAP) break;
    if (!cutLargest(payload, size - LINE_CAP, cuts)) break;
    line = compose();
  }
  if (Buffer.byteLength(line, 'utf8') > LINE_CAP) {
    // Thousands of small fields: no single cut helps. The event keeps what identifies it.
    delete meta.capped;
    delete meta.cappedMore;
    return unparsedRecord(
      input,
      meta,
      `payload does not fit the ${LINE_CAP / 1024} KiB line cap: only its identifying fields are kept`,
      text,
      identifyingFields(payload),
    );
  }
  return {
    line: `${line}\n`,
    event: event?.name,
    kind: event?.kind,
    agent: event?.agent,
    cwd: event?.cwd ?? (typeof payload.cwd === 'string' ? payload.cwd : undefined),
    sessionId: event?.sessionId,
    source: event?.source,
    duplicateKey: event?.agent === 'vscode' ? eventKey(payload) : undefined,
  };
}

function identifyingFields(payload: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) {
    const value = payload[key];
    if (!IDENTIFYING.has(key)) continue;
    if (typeof value === 'string') fields[key] = sliceSafe(value, IDENTIFYING_CHARS);
    else if (typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return fields;
}

/** Margin for the marker and for the estimate of how many characters make a given number of bytes. */
const CUT_SLACK = 256;

/**
 * Shorten the payload by at least `excess` bytes, cutting inside the largest field. Returns false when
 * nothing is left to cut.
 */
function cutLargest(payload: Record<string, unknown>, excess: number, cuts: CutNote[]): boolean {
  let best: { key: string; bytes: number; identifying: boolean } | undefined;
  for (const key of Object.keys(payload)) {
    const bytes = jsonBytes(payload[key]);
    if (bytes <= CUT_SLACK) continue;
    const identifying = IDENTIFYING.has(key);
    // Any other field beats an identifying one; among equals the larger wins.
    if (
      !best ||
      (best.identifying && !identifying) ||
      (best.identifying === identifying && bytes > best.bytes)
    ) {
      best = { key, bytes, identifying };
    }
  }
  if (!best) return false;
  let parent: Record<string, unknown> | unknown[] = payload;
  let key: string | number = best.key;
  let bytes = best.bytes;
  let path = best.key;
  for (;;) {
    const node: unknown = (parent as Record<string | number, unknown>)[key];
    if (!isContainer(node)) break;
    let child: { key: string | number; bytes: number } | undefined;
    const keys: Array<string | number> = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (const k of keys) {
      const b = jsonBytes((node as Record<string | number, unknown>)[k]);
      if (!child || b > child.bytes) child = { key: k, bytes: b };
    }
    // Descend only while the largest child alone can absorb the excess.
    if (!child || child.bytes < excess + 2 * CUT_SLACK) break;
    parent = node;
    key = child.key;
    bytes = child.bytes;
    path = joinPath(path, child.key);
  }
  const node: unknown = (parent as Record<string | number, unknown>)[key];
  const text = typeof node === 'string' ? node : (JSON.stringify(node) ?? '');
  const earlier = cuts.find((c) => c.path === path);
  const originalBytes =
    earlier?.bytes ?? (typeof node === 'string' ? Buffer.byteLength(node, 'utf8') : bytes);
  // The marker ends a string that was cut before: drop it before measuring what to keep.
  const body = earlier && typeof node === 'string' ? node.slice(0, earlier.kept) : text;
  const targetBytes = Math.max(0, bytes - excess - CUT_SLACK);
  const keepChars = Math.floor((body.length * targetBytes) / Math.max(1, bytes));
  const kept = sliceSafe(body, keepChars);
  (parent as Record<string | number, unknown>)[key] = kept + cutMarker(originalBytes);
  if (earlier) {
    earlier.kept = kept.length;
    earlier.reason = 'line';
  } else {
    cuts.push({ path, bytes: originalBytes, kept: kept.length, reason: 'line' });
  }
  return true;
}
