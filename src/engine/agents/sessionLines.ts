/**
 * What the readers of line-per-event session files (Codex's rollouts, VS Code's transcripts) share: reading
 * a file whole, splitting it into lines of the agent's format, and keying items by what they say. Each
 * reader keeps only what its lines mean.
 */
import { createHash } from 'node:crypto';
import type { SessionItem } from './adapter';
import { readSessionBytes } from './sessionBytes';

type SessionRead = { items: SessionItem[]; skipped: number };

/** The first 16 hex digits of a text's SHA-256: a key for a prompt or call by what it says. */
export function textKey(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

/**
 * Each non-blank line of `content` through `parse` (`first` for the first of them): null marks a line that
 * is no line of the format, skipped and counted; undefined one the format says to ignore.
 */
export function parseSessionLines<Line>(
  content: string,
  parse: (raw: string, first: boolean) => Line | null | undefined,
): { lines: Line[]; skipped: number } {
  const lines: Line[] = [];
  let skipped = 0;
  let first = true;
  for (const raw of content.split('\n')) {
    if (raw.trim() === '') continue;
    const line = parse(raw, first);
    first = false;
    if (line === null) skipped++;
    else if (line !== undefined) lines.push(line);
  }
  return { lines, skipped };
}

/**
 * `SessionFiles.read` for a file read whole, decompressed where the agent compressed it: a file removed
 * since it was found reads as empty; any other failure rejects the promise rather than throwing where
 * `read` is called.
 */
export function sessionFileReader(
  read: (content: string, file: string) => SessionRead,
): (file: string) => Promise<SessionRead> {
  return (file) =>
    new Promise((resolve) => {
      let content: string;
      try {
        content = readSessionBytes(file).toString('utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ items: [], skipped: 0 });
        throw error;
      }
      resolve(read(content, file));
    });
}
