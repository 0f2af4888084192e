/** Writing to the event log: every writer (recorder, CLI, MCP server, host) appends the same way. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventsDir } from './paths';

/** The day file a line received at `at` goes to (UTC date), so no file grows without end. */
export function eventLogFile(home: string, at: Date): string {
  return path.join(eventsDir(home), `${at.toISOString().slice(0, 10)}.jsonl`);
}

/**
 * Append one complete line with a single write on an O_APPEND descriptor: concurrent writers never
 * interleave their lines. The folder is created on first use only (the common case costs one syscall).
 */
export function appendEventLine(home: string, line: string, at: Date): string {
  const file = eventLogFile(home, at);
  try {
    fs.appendFileSync(file, line);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, line);
  }
  return file;
}
