/**
 * Redaction of a JSON value (a hook payload): every string redacted, every value under a secret-named key
 * hidden whatever its type, an array of lines (an Edit's `structuredPatch`) read as the text it forms, long
 * strings cut and deep nesting flattened to text.
 */
import { secretKeyKind } from './names';
import { redactAndCut, redactLines } from './text';
import { isPlaceholder, marker } from './valueChecks';

export interface CutNote {
  /** Where in the value: `tool_response.content[0].text`; empty for the value itself. */
  path: string;
  /** UTF-8 size of the original (for a container, of its JSON text). */
  bytes: number;
  /** Characters kept. */
  kept: number;
  /**
   * `length`: a long string; `nesting`: a container nested too deep, kept as JSON text; `line`: cut by the
   * caller to fit a budget for the whole record.
   */
  reason: 'length' | 'nesting' | 'line';
}

export interface RedactValueOptions {
  /** Strings longer than this many characters are cut (default: never). */
  maxStringLength?: number;
  /** Containers deeper than this are replaced by their (redacted, cut) JSON text. Default 64. */
  maxDepth?: number;
}

export interface ValueRedaction<T = unknown> {
  value: T;
  count: number;
  cuts: CutNote[];
}

/** A line of a diff: `+`, `-`, ` ` or `\` ("No newline at end of file") before its text. */
const DIFF_LINE = /^[+\- \\]/;

/**
 * An array of single lines (an Edit's `structuredPatch` lines), redacted as the text they form together:
 * the redacted lines, or undefined for any other array. A diff's `+`/`-`/` ` stays out of the text, so
 * that the lines read as the file does.
 */
function redactLineArray(
  items: readonly unknown[],
  maxString: number,
): { lines: string[]; count: number } | undefined {
  if (items.length < 2) return undefined;
  for (const item of items) {
    if (typeof item !== 'string' || item.length > maxString || item.includes('\n')) return undefined;
  }
  const lines = items as string[];
  const diff = lines.every((line) => DIFF_LINE.test(line));
  const result = redactLines(diff ? lines.map((line) => line.slice(1)) : lines);
  if (result.lines.length !== lines.length) return undefined;
  return {
    lines: diff ? result.lines.map((line, i) => lines[i][0] + line) : result.lines,
    count: result.count,
  };
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number;
  /** Where the processed value goes. */
  target: Record<string, unknown> | unknown[] | undefined;
  /** Hide this value whole, because its key names a secret. */
  secretKind?: string;
}

/** `base` extended by an object key or array index: `tool_response.content[0]["odd key"]`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

function pathOf(frame: Frame): string {
  const parts: Array<string | number> = [];
  for (let f: Frame | undefined = frame; f && f.parent; f = f.parent) parts.push(f.key);
  let out = '';
  for (let i = parts.length - 1; i >= 0; i--) out = joinPath(out, parts[i]);
  return out;
}

function assign(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

/** Under a secret-named key: strings that are not placeholders, numbers, non-empty containers. */
function holdsSecret(value: unknown): boolean {
  if (typeof value === 'string') return !isPlaceholder(value);
  if (typeof value === 'number') return true;
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify without recursion, so that any nesting depth is safe (parsed JSON has no toJSON). */
function jsonText(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Raw) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      stack.push(new Raw(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        const v = item[i];
        stack.push(v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v);
        if (i > 0) stack.push(new Raw(','));
      }
      stack.push(new Raw('['));
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item).filter(
        ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
      );
      stack.push(new Raw('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i][1]);
        stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(entries[i][0])}:`));
      }
      stack.push(new Raw('{'));
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}

/**
 * A redacted copy of a JSON value: secrets in every string are replaced, values of keys that name a secret
 * (`password`, `api_key`, `accessToken`, ...) are replaced whole whatever their type (booleans and null
 * stay), long strings are cut and deep nesting is flattened to text. Iterative, so any depth is safe.
 * Object keys themselves are kept as they are.
 */
export function redactValue<T = unknown>(value: T, options: RedactValueOptions = {}): ValueRedaction<T> {
  const maxString = options.maxStringLength ?? Infinity;
  const maxDepth = options.maxDepth ?? 64;
  const cuts: CutNote[] = [];
  let count = 0;
  const root: { value?: unknown } = {};
  const stack: Frame[] = [
    { value, depth: 0, parent: undefined, key: 'value', target: root as Record<string, unknown> },
  ];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    let node = frame.value;
    const target = frame.target!;
    if (frame.secretKind && holdsSecret(node)) {
      count++;
      assign(target, frame.key, marker(frame.secretKind));
      continue;
    }
    if (node !== null && typeof node === 'object' && frame.depth >= maxDepth) {
      const json = jsonText(node);
      const bytes = Buffer.byteLength(json, 'utf8');
      node = json;
      const limit = Math.min(maxString, json.length);
      cuts.push({ path: pathOf(frame), bytes, kept: limit, reason: 'nesting' });
    }
    if (typeof node === 'string') {
      const result = redactAndCut(node, maxString);
      count += result.count;
      if (result.cut) {
        const path = pathOf(frame);
        const earlier = cuts.find((c) => c.path === path);
        if (earlier) earlier.kept = result.cut.kept;
        else cuts.push({ path, bytes: result.cut.bytes, kept: result.cut.kept, reason: 'length' });
      }
      assign(target, frame.key, result.text);
    } else if (Array.isArray(node)) {
      const lines = redactLineArray(node, maxString);
      if (lines) {
        count += lines.count;
        assign(target, frame.key, lines.lines);
        continue;
      }
      const out: unknown[] = new Array(node.length);
      assign(target, frame.key, out);
      for (let i = node.length - 1; i >= 0; i--) {
        stack.push({ value: node[i], depth: frame.depth + 1, parent: frame, key: i, target: out });
      }
    } else if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      assign(target, frame.key, out);
      const keys = Object.keys(node);
      // Placeholders first keep the original key order; values are filled in as the stack unwinds.
      for (const key of keys) assign(out, key, undefined);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        stack.push({
          value: (node as Record<string, unknown>)[key],
          depth: frame.depth + 1,
          parent: frame,
          key,
          target: out,
          secretKind: secretKeyKind(key),
        });
      }
    } else {
      assign(target, frame.key, node);
    }
  }
  return { value: root.value as T, count, cuts };
}
