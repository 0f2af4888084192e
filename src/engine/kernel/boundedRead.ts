/**
 * The one way files a repository or a user's config declares are read: regular files only, a bounded number
 * of bytes, never a wait. A FIFO would block the reader forever and a link to /dev/zero never ends, so:
 * - a link is followed only to a regular file (and, with `within`, only to one inside that folder: a link
 *   out of a repository is not the repository's file);
 * - the file is opened with O_NONBLOCK and its kind checked with fstat on the opened descriptor, so a FIFO
 *   swapped in after a check can't block;
 * - at most `maxBytes` are read: past it the file is a problem (`head` keeps what was read instead).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NO_FOLLOW_NO_WAIT } from './privateFiles';

/** A repository's config files (JSON, TOML): real ones are a few KB. */
export const CONFIG_MAX_BYTES = 1024 * 1024;
/** The user's own config files: ~/.claude.json keeps every project's state and grows to megabytes. */
const USER_CONFIG_MAX_BYTES = 64 * 1024 * 1024;

/** The cap for a config file: a repository's (read `within` it) or the user's own. */
export function configMaxBytes(within: string | undefined): number {
  return within === undefined ? USER_CONFIG_MAX_BYTES : CONFIG_MAX_BYTES;
}
/** Markdown tools: only their front matter and first line are read. */
export const MARKDOWN_HEAD_BYTES = 64 * 1024;

const CHUNK_BYTES = 64 * 1024;

export type BoundedRead =
  | { text: string; truncated: boolean }
  | { missing: true }
  /** Why the file was not read, to show after its name, e.g. "is a named pipe, not a regular file". */
  | { problem: string };

export interface BoundedReadOptions {
  maxBytes: number;
  /** Keep the first `maxBytes` of a larger file (`truncated: true`) instead of refusing it. */
  head?: boolean;
  /** A folder the file must really be in (after links are resolved). */
  within?: string;
}

/** What a directory entry is when it is no regular file, in a few words for a message ("is a named pipe"). */
export function fileKind(stat: fs.Stats | fs.BigIntStats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function notRegular(stat: fs.Stats): string {
  return `is ${fileKind(stat)}, not a regular file: not read`;
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

export function readBounded(file: string, options: BoundedReadOptions): BoundedRead {
  let target: string;
  try {
    // Where links lead, and what is there before it is opened: a device is never opened at all.
    target = fs.realpathSync(file);
    const stat = fs.statSync(target);
    if (!stat.isFile()) return { problem: notRegular(stat) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    return { problem: `could not be read (${(error as Error).message})` };
  }
  if (options.within !== undefined) {
    const folder = realPath(options.within) ?? path.resolve(options.within);
    if (!isInside(folder, target)) return { problem: `is a link out of ${options.within}: not read` };
  }
  let fd: number;
  try {
    fd = fs.openSync(target, fs.constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
  } catch (error) {
    return { problem: `could not be read (${(error as Error).message})` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { problem: notRegular(stat) };
    // Read to the end, not to the size stat gave (it changes, and is 0 for some generated files), up to one
    // byte past the cap, which tells a file at the cap from a larger one.
    const buffer = Buffer.allocUnsafe(options.maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, Math.min(CHUNK_BYTES, buffer.length - length), null);
      if (read === 0) break;
      length += read;
    }
    const truncated = length > options.maxBytes;
    if (truncated && !options.head)
      return { problem: `is larger than ${Math.round(options.maxBytes / 1024)} KB: not read` };
    return { text: buffer.toString('utf8', 0, Math.min(length, options.maxBytes)), truncated };
  } catch (error) {
    return { problem: `could not be read (${(error as Error).message})` };
  } finally {
    fs.closeSync(fd);
  }
}
