/**
 * Checked against the code before use: a file an observation names is looked up in the project before the
 * observation is recalled. A file no longer there is "deleted since" (never presented as current); one
 * modified after the observation is "changed since" that time, unless a whole-file write's content hash
 * says it still holds what was written. One `stat` per file, cached for the assembly that asks; a hash
 * reads at most 1 MiB of a regular file (readBounded: no device, no pipe), cached by size and time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBounded } from '../kernel/boundedRead';
import { contentHash, shortDate } from '../memory/text';

export type CitationState = { state: 'current' } | { state: 'changed'; at: number } | { state: 'deleted' };

/** Writes land a moment after the tool call that reports them; within this a file is unchanged. */
const SETTLE_MS = 5_000;

/** Files this large are judged by their time alone: a hash would read too much. */
const HASH_MAX_BYTES = 1024 * 1024;

export class Citations {
  private readonly modified = new Map<string, { at: number; size: number; path: string } | null>();
  /** Content hashes by path, size and time: a file is read at most once while it stays as it is. */
  private static readonly hashes = new Map<string, string | null>();

  constructor(private readonly roots: readonly string[]) {}

  /** Where `file` (as a change named it) is, when it was last modified and its size; null when in no root. */
  private found(file: string): { at: number; size: number; path: string } | null {
    let known = this.modified.get(file);
    if (known !== undefined) return known;
    known = null;
    const candidates = path.isAbsolute(file) ? [file] : this.roots.map((root) => path.join(root, file));
    for (const candidate of candidates) {
      try {
        const stat = fs.statSync(candidate, { throwIfNoEntry: false });
        if (stat?.isFile()) {
          known = { at: stat.mtimeMs, size: stat.size, path: candidate };
          break;
        }
      } catch {
        // Unreadable folder on the way: not found there.
      }
    }
    this.modified.set(file, known);
    return known;
  }

  /** SHA-256 of a regular file of at most HASH_MAX_BYTES, cached by path, size and time; null if unread. */
  private static hashOf(found: { at: number; size: number; path: string }): string | null {
    const key = `${found.path}\u0000${found.size}\u0000${found.at}`;
    let hash = Citations.hashes.get(key);
    if (hash !== undefined) return hash;
    const read =
      found.size <= HASH_MAX_BYTES ? readBounded(found.path, { maxBytes: HASH_MAX_BYTES }) : undefined;
    hash = read && 'text' in read && !read.truncated ? contentHash(read.text) : null;
    if (Citations.hashes.size >= 1000) Citations.hashes.clear();
    Citations.hashes.set(key, hash);
    return hash;
  }

  /**
   * What became of `file` since an observation of `at` saw it. A file modified later is still as it was when
   * `hash`, what a whole-file write wrote, is its content now (a checkout or a `touch` changes only its time).
   */
  check(file: string, at: number, hash?: string): CitationState {
    const found = this.found(file);
    if (found === null) return { state: 'deleted' };
    if (found.at <= at + SETTLE_MS) return { state: 'current' };
    if (hash !== undefined && Citations.hashOf(found) === hash) return { state: 'current' };
    return { state: 'changed', at: found.at };
  }
}

/** What a file's state adds after an observation that names it: nothing while it is as the change left it. */
function citationNote(state: CitationState): string {
  if (state.state === 'deleted') return ' (file deleted since)';
  if (state.state === 'changed') return ` (file changed since, ${shortDate(state.at)})`;
  return '';
}

/** For the MCP answers and the dashboard: each observation's file checked against the project's folders, once per answer. */
export function citationNotes(
  roots: readonly string[],
): (observation: { file: string | null; fileHash?: string | null; at: number }) => string {
  const citations = new Citations(roots);
  return ({ file, fileHash, at }) =>
    file === null ? '' : citationNote(citations.check(file, at, fileHash ?? undefined));
}
