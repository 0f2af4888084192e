/**
 * Careful edits of other tools' settings files (JSON with comments): every change is a minimal text edit,
 * so comments, formatting and unknown keys survive. A file that doesn't parse is never touched.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONFIG_MAX_BYTES, readBounded } from '../kernel/boundedRead';
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
function detectFormatting(text: string): FormattingOptions {
  const indent = text.match(/^([ \t]+)\S/m)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * A document under edit: each change applies to the latest text. A missing or blank file starts as `{}`
 * and, having no comments or hand formatting to keep, is written as Claude Code writes its own settings:
 * 2-space JSON with a final newline.
 */
export class JsoncDocument {
  readonly formatting: FormattingOptions;
  text: string;
  private readonly created: boolean;

  constructor(
    before: string | undefined,
    readonly file: string,
  ) {
    this.text = before?.trim() ? before : '{}\n';
    this.created = this.text !== before;
    this.formatting = detectFormatting(this.text);
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
    if (this.created) this.text = `${JSON.stringify(this.value, null, 2)}\n`;
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

/** Read a settings file; a missing file reads as undefined, one that is not a regular file or too large throws. */
export function readSettingsText(file: string): string | undefined {
  // The dashboard reads a repository's settings to show whether an agent is connected: bounded, never a wait.
  const read = readBounded(file, { maxBytes: CONFIG_MAX_BYTES });
  if ('problem' in read) throw new Error(`${file} ${read.problem}`);
  return 'text' in read ? read.text : undefined;
}

/** Backups live under Context Deck's home, never beside the file: `.claude/` is the agent's (and git's). */
function settingsBackupPath(file: string, now: number, home: string): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  return path.join(settingsBackupDir(home), `${stamp}-${path.basename(file)}`);
}

export function settingsBackupDir(home: string): string {
  return path.join(home, 'backups');
}

/** The file a settings path names: symlinks (a dotfiles repository's, say) are followed to their target. */
function linkTarget(file: string): string {
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      link = fs.readlinkSync(file);
    } catch {
      return file; // Not a symlink, or nothing there yet.
    }
    file = path.resolve(path.dirname(file), link);
  }
  throw new Error(`${file}: too many levels of symbolic links`);
}

/** Replace `target` by a temp file written beside it and renamed over it; `mode` is the old file's. */
function replaceAtomically(target: string, text: string, mode: number | undefined): void {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.context-deck-${process.pid}.tmp`);
  try {
    fs.rmSync(temp, { force: true });
    // Created exclusively with at most the final mode, so a private file is never readable by others.
    fs.writeFileSync(temp, text, { mode: mode ?? 0o666, flag: 'wx' });
    if (mode !== undefined) fs.chmodSync(temp, mode); // The bits the umask took away.
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Remove a file that connecting created (its backup kept, as for any change); returns the backup. */
function removeWithBackup(file: string, home: string, now: number): string | undefined {
  const backup = settingsBackupPath(file, now, home);
  try {
    fs.mkdirSync(path.dirname(backup), { recursive: true, mode: 0o700 });
    fs.copyFileSync(file, backup);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  fs.rmSync(file);
  return backup;
}

/**
 * Write a settings file (or, for `undefined`, remove it), first copying the current version to its backup path (returned).
 * The write goes through symlinks to their target and keeps the file's mode (a 0600 file holding tokens
 * stays 0600; a new file gets the umask's default), atomically: a temp file beside the target renamed over
 * it, so Claude Code never reads half a file.
 */
export function writeSettingsWithBackup(
  file: string,
  text: string | undefined,
  home: string,
  now = Date.now(),
): string | undefined {
  if (text === undefined) return removeWithBackup(file, home, now);
  const target = linkTarget(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let existing: fs.Stats | undefined;
  try {
    existing = fs.statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  let backup: string | undefined;
  if (existing) {
    backup = settingsBackupPath(file, now, home);
    // Private: a backup holds whatever secrets the settings hold.
    fs.mkdirSync(path.dirname(backup), { recursive: true, mode: 0o700 });
    fs.copyFileSync(target, backup);
  }
  // Renaming over a hard link would split it from its other names: that file is rewritten in place.
  if (existing && existing.nlink > 1) fs.writeFileSync(target, text);
  else replaceAtomically(target, text, existing ? existing.mode & 0o7777 : undefined);
  return backup;
}
