/** Reading JSON config files (comments allowed) with the line of each entry, for "open at the entry". */
import * as fs from 'node:fs';
import {
  type JSONPath,
  type Node,
  type ParseError,
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';

export interface JsonMember {
  key: string;
  value: unknown;
  /** 1-based line of the key. */
  line: number;
}

export class JsonConfig {
  private lineStarts: number[] | undefined;

  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly root: Node | undefined,
  ) {}

  valueAt(jsonPath: JSONPath): unknown {
    const node = this.root && findNodeAtLocation(this.root, jsonPath);
    return node ? getNodeValue(node) : undefined;
  }

  /** The properties of the object at `jsonPath`, in file order; nothing when it isn't an object. */
  membersAt(jsonPath: JSONPath): JsonMember[] {
    const node = this.root && findNodeAtLocation(this.root, jsonPath);
    if (node?.type !== 'object') return [];
    return (node.children ?? []).flatMap((property) => {
      const [key, value] = property.children ?? [];
      return key && value
        ? [{ key: String(key.value), value: getNodeValue(value), line: this.lineAt(key.offset) }]
        : [];
    });
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

/** Read and parse a config file; a syntax error comes back as a message naming the first one's position. */
export function readJsonConfig(file: string): JsonRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    return { problem: `could not be read (${(error as Error).message})` };
  }
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
