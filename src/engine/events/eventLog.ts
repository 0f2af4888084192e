/** Writing to the event log: every writer (recorder, CLI, MCP server, host) appends the same way. */
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { eventsDir } from '../kernel/paths';
import { NO_FOLLOW_NO_WAIT, PRIVATE_FILE_MODE, makePrivateDir } from '../kernel/privateFiles';

/** Read and write (to see the last byte), append, create private; never through a link, never waiting. */
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW_NO_WAIT;

/** The day file a line received at `at` goes to (UTC date), so no file grows without end. */
export function eventLogFile(home: string, at: Date): string {
  return join(eventsDir(home), `${at.toISOString().slice(0, 10)}.jsonl`);
}

function openForAppend(file: string): number {
  try {
    return openSync(file, APPEND_FLAGS, PRIVATE_FILE_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new Error(`${file} is a symbolic link; nothing was written to it`);
    if (code !== 'ENOENT') throw error;
    makePrivateDir(dirname(file));
    return openSync(file, APPEND_FLAGS, PRIVATE_FILE_MODE);
  }
}

function endsWithNewline(fd: number, size: number): boolean {
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/**
 * Append one complete line with a single write on an O_APPEND descriptor: concurrent writers never
 * interleave their lines. Only a regular file is written (a FIFO or a link in its place is refused, never
 * waited on). A line left partial by a full disk is ended first, so it costs only itself, never the next
 * event; a short write is not continued, since another writer's line may already follow it.
 */
export function appendEventLine(home: string, line: string, at: Date): string {
  const file = eventLogFile(home, at);
  const fd = openForAppend(file);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file; nothing was written to it`);
    const bytes = Buffer.from(endsWithNewline(fd, stat.size) ? line : `\n${line}`, 'utf8');
    const written = writeSync(fd, bytes);
    if (written < bytes.length) throw new Error(`${file}: only ${written} of ${bytes.length} bytes written`);
  } finally {
    closeSync(fd);
  }
  return file;
}
