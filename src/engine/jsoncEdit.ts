/**
 * Careful edits of other tools' settings files (JSON with comments): every change is a minimal text edit,
 * so comments, formatting and unknown keys survive. A file that doesn't parse is never touched.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type EditResult,
  type FormattingOptions,
  type JSONPath,
  type ParseError,
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';

export class SettingsParseError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file} could not be parsed (${detail}); it was left untouched`);
  }
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** Parse JSONC strictly enough to edit safely: comments and trailing commas are fine, syntax errors are not. */
export function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    throw new SettingsParseError(
      file,
      `${printParseErrorCode(first.error)} at ${lineAndColumn(text, first.offset)}`,
    );
  }
  return value;
}

/** Indentation and line ending as the file already uses them. */
export function detectFormatting(text: string): FormattingOptions {
  const indent = text.match(/^([ \t]+)\S/m)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/** A document under edit: each change applies to the latest text. */
export class JsoncDocument {
  readonly formatting: FormattingOptions;

  constructor(
    public text: string,
    readonly file: string,
  ) {
    this.formatting = detectFormatting(text);
  }

  get value(): unknown {
    return parseJsonc(this.text, this.file);
  }

  set(jsonPath: JSONPath, value: unknown): void {
    this.apply(modify(this.text, jsonPath, value, {}));
  }

  insert(arrayPath: JSONPath, index: number, value: unknown): void {
    this.apply(modify(this.text, [...arrayPath, index], value, { isArrayInsertion: true }));
  }

  /**
   * Apply edits, then format only the text they inserted: jsonc-parser's own formatting would also
   * reformat the neighbours (the user's hand-formatted entries).
   */
  private apply(edits: EditResult): void {
    for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) {
      this.text = applyEdits(this.text, [edit]);
      if (edit.content.length === 0) continue;
      const range = { offset: edit.offset, length: edit.content.length };
      this.text = applyEdits(this.text, format(this.text, range, this.formatting));
    }
  }

  /**
   * Remove a property or array item as the exact inverse of appending it: from the end of the previous
   * sibling to the end of the item, so the neighbours' commas and comments stay where they were.
   */
  remove(jsonPath: JSONPath): void {
    const valueNode = findNodeAtLocation(parseTree(this.text, [], { allowTrailingComma: true })!, jsonPath);
    if (!valueNode) return;
    const item = valueNode.parent?.type === 'property' ? valueNode.parent : valueNode;
    const siblings = item.parent?.children ?? [];
    const index = siblings.indexOf(item);
    if (index < 0) return;
    let start: number;
    let end: number;
    if (index > 0) {
      start = siblings[index - 1].offset + siblings[index - 1].length;
      end = item.offset + item.length;
    } else if (siblings.length > 1) {
      start = item.offset;
      end = siblings[1].offset;
    } else {
      const container = item.parent!;
      start = container.offset + 1;
      end = container.offset + container.length - 1;
    }
    this.text = this.text.slice(0, start) + this.text.slice(end);
  }
}

/** Read a settings file; a missing file reads as undefined. */
export function readSettingsText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Write a settings file, keeping a backup of the previous version beside it first. */
export function writeSettingsWithBackup(file: string, text: string, now = Date.now()): string | undefined {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let backup: string | undefined;
  if (fs.existsSync(file)) {
    backup = `${file}.context-deck-backup-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
    fs.copyFileSync(file, backup);
  }
  const temp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
  return backup;
}
