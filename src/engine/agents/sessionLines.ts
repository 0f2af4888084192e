/**
 * What the readers of line-per-event session files (Codex's rollouts, VS Code's transcripts) share: reading
 * a file a line at a time within bounds, parsing each into a line of the agent's format, and keying items
 * by what they say. Each reader keeps only what its lines mean.
 */
import { createHash } from 'node:crypto';
import type { SessionItem } from './adapter';
import { readSessionLines } from './sessionBytes';

type SessionRead = { items: SessionItem[]; skipped: number };

/** The first 16 hex digits of a text's SHA-256: a key for a prompt or call by what it says. */
export function textKey(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

/** A session's text: the whole of it, or a source that hands over its lines one by one (and counts those it skipped). */
export type SessionText = string | ((onLine: (raw: string) => void) => number);

/**
 * Each non-blank line of `text` through `parse` (`first` for the first of them): null marks a line that is
 * no line of the format, skipped and counted; undefined one the format says to ignore. Only parsed lines
 * are kept, so a source's text is never held whole.
 */
export function parseSessionLines<Line>(
  text: SessionText,
  parse: (raw: string, first: boolean) => Line | null | undefined,
): { lines: Line[]; skipped: number } {
  const lines: Line[] = [];
  let skipped = 0;
  let first = true;
  const take = (raw: string) => {
    if (raw.trim() === '') return;
    const line = parse(raw, first);
    first = false;
    if (line === null) skipped++;
    else if (line !== undefined) lines.push(line);
  };
  // A source counts the lines too long to hand over; they are skipped lines too.
  let longLines = 0;
  if (typeof text === 'string') text.split('\n').forEach(take);
  else longLines = text(take);
  return { lines, skipped: skipped + longLines };
}

/**
 * `SessionFiles.read` for a file read a line at a time, decompressed where the agent compressed it
 * (sessionBytes.ts: a line too long to keep is skipped and counted; a file past the bounds is refused). A
 * file removed since it was found reads as empty; any other failure rejects the promise rather than
 * throwing where `read` is called.
 */
export function sessionFileReader(
  read: (text: SessionText, file: string) => SessionRead,
): (file: string) => Promise<SessionRead> {
  return (file) =>
    new Promise((resolve) => {
      try {
        resolve(read((onLine) => readSessionLines(file, onLine).longLines, file));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ items: [], skipped: 0 });
        throw error;
      }
    });
}
