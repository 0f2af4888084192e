/**
 * Reading JSON config files (comments allowed) with the line of each entry, for "open at the entry". A
 * repository's config is hostile input: the file is read bounded (see boundedRead.ts), nesting deeper than
 * MAX_NESTING is refused before the (recursive) parser sees it, an object yields at most MAX_MEMBERS
 * members, and a key written twice counts once, as the last one, as JSON.parse and the agents take it.
 */
import {
  type JSONPath,
  type Node,
  type ParseError,
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { configMaxBytes, readBounded } from './boundedRead';

/** Deeper than any real config (they nest 3-6 levels), far below what overflows the parsers' recursion. */
export const MAX_NESTING = 100;
/** Members taken from one object, e.g. servers of one file; a real config declares tens. */
export const MAX_MEMBERS = 1000;

export interface JsonMember {
  key: string;
  value: unknown;
  /** 1-based line of the key. */
  line: number;
}

export class JsonConfig {
  private lineStarts: number[] | undefined;
  /** What was found odd while reading members (duplicate keys, members left out), each once. */
  readonly warnings: Array<{ message: string; readWhole?: true }> = [];

  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly root: Node | undefined,
  ) {}

  valueAt(jsonPath: JSONPath): unknown {
    const node = this.root && findNodeAtLocation(this.root, jsonPath);
    return node ? getNodeValue(node) : undefined;
  }

  /**
   * The properties of the object at `jsonPath`, in file order, each key once with its last definition;
   * at most MAX_MEMBERS of them; nothing when it isn't an object.
   */
  membersAt(jsonPath: JSONPath): JsonMember[] {
    const node = this.root && findNodeAtLocation(this.root, jsonPath);
    if (node?.type !== 'object') return [];
    const last = new Map<string, Node>();
    const duplicated = new Set<string>();
    for (const property of node.children ?? []) {
      const key = property.children?.[0];
      if (!key || !property.children?.[1]) continue;
      const name = String(key.value);
      if (last.delete(name)) duplicated.add(name);
      last.set(name, property);
    }
    const where = jsonPath.length ? `"${jsonPath.join('.')}"` : 'the top level';
    if (duplicated.size > 0) {
      const names = [...duplicated].slice(0, 3).map((name) => JSON.stringify(name));
      const more = duplicated.size > 3 ? ` and ${duplicated.size - 3} more` : '';
      this.warn(
        `${names.join(', ')}${more} of ${where} written more than once: the last definition counts, as for the agent`,
        true,
      );
    }
    if (last.size > MAX_MEMBERS)
      this.warn(`${where} has ${last.size} entries: only the first ${MAX_MEMBERS} are shown`);
    return [...last.values()].slice(0, MAX_MEMBERS).flatMap((property) => {
      const [key, value] = property.children!;
      return [{ key: String(key.value), value: getNodeValue(value), line: this.lineAt(key.offset) }];
    });
  }

  private warn(message: string, readWhole = false): void {
    if (!this.warnings.some((warning) => warning.message === message))
      this.warnings.push(readWhole ? { message, readWhole } : { message });
  }

  lineAt(offset: number): number {
    this.lineStarts ??= [...this.text.matchAll(/\n/g)].map((match) => match.index + 1);
    let low = 0;
    let high = this.lineStarts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }
}

export type JsonRead = { config: JsonConfig } | { missing: true } | { problem: string };

/**
 * Where `text` (JSON with comments) nests deeper than `limit` arrays and objects, or -1: a linear scan
 * that skips strings and comments.
 */
function nestingBeyond(text: string, limit: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) return -1;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i < 0) return -1;
      i++;
    } else if (c === '{' || c === '[') {
      if (++depth > limit) return i;
    } else if (c === '}' || c === ']') {
      depth--;
    }
  }
  return -1;
}

export interface JsonReadOptions {
  /** The folder the file must really be in (a repository's files: links out of it are not read). */
  within?: string;
}

/**
 * Read and parse a config file (bounded, see the top); a syntax error comes back as a message naming the
 * first one's position.
 */
export function readJsonConfig(file: string, options: JsonReadOptions = {}): JsonRead {
  const read = readBounded(file, { maxBytes: configMaxBytes(options.within), within: options.within });
  if (!('text' in read)) return read;
  const text = read.text;
  const tooDeep = nestingBeyond(text, MAX_NESTING);
  if (tooDeep >= 0)
    return {
      problem: `nests deeper than ${MAX_NESTING} levels at line ${new JsonConfig(file, text, undefined).lineAt(tooDeep)}: not read`,
    };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const config = new JsonConfig(file, text, root);
  if (errors.length > 0) {
    const first = errors[0];
    const line = config.lineAt(first.offset);
    const column = first.offset - text.lastIndexOf('\n', first.offset - 1);
    return {
      problem: `not valid JSON: ${printParseErrorCode(first.error)} at line ${line}, column ${column}`,
    };
  }
  if (root !== undefined && root.type !== 'object') return { problem: 'not a JSON object' };
  return { config };
}
