/**
 * Checked against the code before use: a file an observation names is looked up in the project before the
 * observation is recalled. A file no longer there is "deleted since" (never presented as current); one
 * modified after the observation is "changed since" that time. One `stat` per file (no read, no link
 * followed out of the question: a stat does not open the file), cached for the assembly that asks.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shortDate } from '../memory/text';

export type CitationState = { state: 'current' } | { state: 'changed'; at: number } | { state: 'deleted' };

/** Writes land a moment after the tool call that reports them; within this a file is unchanged. */
const SETTLE_MS = 5_000;

export class Citations {
  private readonly modified = new Map<string, number | null>();

  constructor(private readonly roots: readonly string[]) {}

  /** When `file` (as a change named it) was last modified, or null when it is in none of the roots. */
  private modifiedAt(file: string): number | null {
    let known = this.modified.get(file);
    if (known !== undefined) return known;
    known = null;
    const candidates = path.isAbsolute(file) ? [file] : this.roots.map((root) => path.join(root, file));
    for (const candidate of candidates) {
      try {
        const stat = fs.statSync(candidate, { throwIfNoEntry: false });
        if (stat?.isFile()) {
          known = stat.mtimeMs;
          break;
        }
      } catch {
        // Unreadable folder on the way: not found there.
      }
    }
    this.modified.set(file, known);
    return known;
  }

  /** What became of `file` since an observation of `at` saw it. */
  check(file: string, at: number): CitationState {
    const modified = this.modifiedAt(file);
    if (modified === null) return { state: 'deleted' };
    return modified > at + SETTLE_MS ? { state: 'changed', at: modified } : { state: 'current' };
  }
}

/** What a file's state adds after an observation that names it: nothing while it is as the change left it. */
function citationNote(state: CitationState): string {
  if (state.state === 'deleted') return ' (file deleted since)';
  if (state.state === 'changed') return ` (file changed since, ${shortDate(state.at)})`;
  return '';
}

/** For the MCP answers: each observation's file checked against the project's folders, once per answer. */
export function citationNotes(
  roots: readonly string[],
): (observation: { file: string | null; at: number }) => string {
  const citations = new Citations(roots);
  return ({ file, at }) => (file === null ? '' : citationNote(citations.check(file, at)));
}
