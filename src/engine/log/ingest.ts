import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVENT_WIDTH, REJECT_WIDTH } from './chunkParse';
import { type ChunkReader, inlineReader, workerReader } from './chunkReaders';
import { EventRowWriter } from './eventRows';
import { fileKind } from '../kernel/boundedRead';
import { NO_FOLLOW_NO_WAIT } from '../kernel/privateFiles';
import type { Routes } from './routing';
import type { Store } from '../storage/store';
import { yieldToHost } from '../kernel/yieldToHost';
import type { IngestProgress } from '../../shared/ingest';

/** How many bytes at the start and before the committed offset identify a file's already-read content. */
const FINGERPRINT_BYTES = 4096;
/** Bytes read at a time when a rewritten file is searched for the last line read. */
const SEARCH_BYTES = 1024 * 1024;
/**
 * Bytes per transaction. Each commit rewrites the B-tree pages it touched, so larger chunks are faster;
 * 4 MiB (about 6,000 events, well under 100 ms of work) still leaves the host responsive between chunks.
 */
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
/** A backlog of this many chunks or more is parsed on a worker; less is not worth starting one. */
const PARSE_WORKER_MIN_CHUNKS = 3;

export interface IngestOptions {
  /** Bytes read and committed per transaction; smaller chunks keep the host responsive. */
  chunkBytes?: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Called after each committed chunk (e.g. to save a snapshot during a long backlog). */
  afterChunk?: () => Promise<void> | void;
  signal?: AbortSignal;
}

export interface IngestResult {
  events: number;
  rejected: number;
  /** Lines that belong to other projects (or to none), left for them. */
  foreign: number;
  bytes: number;
  /** Log files found rewritten (edited, truncated or replaced) after they were read, and what was done: for the user. */
  rewritten: string[];
  /** Entries of the log folder that are not read (a folder, a link, a FIFO...): for the user. */
  skipped: string[];
  /** Chunks read and parsed on the parse worker (large backlogs); the rest were parsed inline. */
  workerChunks: number;
}

interface LogFileRow {
  id: number;
  path: string;
  identity: string;
  head_len: number;
  head_hash: string;
  tail_hash: string;
  offset: number;
  generation: number;
  last_line_len: number;
  seen_size: number;
  seen_mtime: number;
  [key: string]: number | string;
}

interface FilePlan {
  row: LogFileRow;
  stat: fs.Stats;
  identity: string;
  start: number;
}

/** What identifies the content read up to an offset (the columns of log_files of the same names). */
interface Fingerprint {
  head_len: number;
  head_hash: string;
  tail_hash: string;
  last_line_len: number;
}

export interface LogListing {
  /** Regular `*.jsonl` files, oldest day first. */
  files: string[];
  /** Why each other `*.jsonl` entry (a folder, link, FIFO...) is not read, for the user. */
  skipped: string[];
}

interface LogEntries {
  entries: Array<{ file: string; stat: fs.Stats }>;
  skipped: string[];
}

/**
 * The log files of `eventsDir`, with what lstat said of each. Only regular files are read: a FIFO would
 * block ingestion forever, a link could lead to /dev/zero or to a credentials file, a folder fails every
 * read. Links are not followed.
 */
export function listLogEntries(eventsDir: string): LogEntries {
  const listing: LogEntries = { entries: [], skipped: [] };
  let names: string[];
  try {
    names = fs.readdirSync(eventsDir);
  } catch {
    return listing;
  }
  for (const name of names.filter((n) => n.endsWith('.jsonl')).sort()) {
    const file = path.join(eventsDir, name);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch {
      continue; // Gone since the listing.
    }
    if (stat.isFile()) listing.entries.push({ file, stat });
    else listing.skipped.push(`${file} is ${fileKind(stat)}, not an event log file: it is not read.`);
  }
  return listing;
}

export function listLogFiles(eventsDir: string): LogListing {
  const { entries, skipped } = listLogEntries(eventsDir);
  return { files: entries.map((entry) => entry.file), skipped };
}

/** A descriptor on `file` if it still is a regular file: never through a link, never waiting on a FIFO. */
function openLogFile(file: string): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW_NO_WAIT);
  } catch {
    return undefined;
  }
  if (fs.fstatSync(fd).isFile()) return fd;
  fs.closeSync(fd);
  return undefined;
}

function hashBytes(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('hex');
}

function readRange(fd: number, start: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, start);
  return buffer.subarray(0, read);
}

function identityOf(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}`;
}

/** The length of the line that ends `tail` (which ends with a newline), up to the tail's length. */
function lastLineLength(tail: Buffer): number {
  if (tail.length < 2) return tail.length;
  return tail.length - 1 - tail.lastIndexOf(NEWLINE, tail.length - 2);
}

const NEWLINE = 0x0a;

/** What identifies the first `offset` bytes of the open file `fd` (which end with a newline). */
function fingerprintOf(fd: number, offset: number): Fingerprint {
  const headLen = Math.min(offset, FINGERPRINT_BYTES);
  const tail = readRange(fd, offset - headLen, headLen);
  return {
    head_len: headLen,
    head_hash: hashBytes(readRange(fd, 0, headLen)),
    tail_hash: hashBytes(tail),
    last_line_len: lastLineLength(tail),
  };
}

const EMPTY_FINGERPRINT: Fingerprint = {
  head_len: 0,
  head_hash: hashBytes(Buffer.alloc(0)),
  tail_hash: hashBytes(Buffer.alloc(0)),
  last_line_len: 0,
};

function sameContent(fd: number, size: number, row: LogFileRow): boolean {
  if (size < row.offset) return false;
  const tailLen = Math.min(row.offset, FINGERPRINT_BYTES);
  return (
    hashBytes(readRange(fd, 0, row.head_len)) === row.head_hash &&
    hashBytes(readRange(fd, row.offset - tailLen, tailLen)) === row.tail_hash
  );
}

/**
 * Where the content read before ends in a rewritten file: after the last line that ends as the last line
 * read did (the same line length, up to the tail's, and the same tail bytes before it); undefined when no
 * line does. Lines of another length are not hashed, so this reads the file once.
 */
function findReadEnd(fd: number, size: number, row: LogFileRow): number | undefined {
  const tailLen = Math.min(row.offset, FINGERPRINT_BYTES);
  const buffer = Buffer.allocUnsafe(SEARCH_BYTES);
  let found: number | undefined;
  let lineStart = 0;
  for (let position = 0; position < size;) {
    const read = fs.readSync(fd, buffer, 0, Math.min(SEARCH_BYTES, size - position), position);
    if (read === 0) break;
    for (let at = buffer.indexOf(NEWLINE); at >= 0 && at < read; at = buffer.indexOf(NEWLINE, at + 1)) {
      const end = position + at + 1;
      const length = Math.min(end - lineStart, tailLen);
      if (length === row.last_line_len && end >= tailLen) {
        if (hashBytes(readRange(fd, end - tailLen, tailLen)) === row.tail_hash) found = end;
      }
      lineStart = end;
    }
    position += read;
  }
  return found;
}

/** The start of the first line at or after `offset`: a line cut by a truncation was read already. */
function nextLineStart(fd: number, offset: number, size: number): number {
  if (offset === 0 || readRange(fd, offset - 1, 1)[0] === NEWLINE) return offset;
  const buffer = Buffer.allocUnsafe(SEARCH_BYTES);
  for (let position = offset; position < size;) {
    const read = fs.readSync(fd, buffer, 0, Math.min(SEARCH_BYTES, size - position), position);
    if (read === 0) break;
    const newline = buffer.subarray(0, read).indexOf(NEWLINE);
    if (newline >= 0) return position + newline + 1;
    position += read;
  }
  // The cut line is not ended yet: the recorder ends it before its next line, which is then read.
  return size;
}

/** Whether a file is as it was when last read to its end: then it is not even opened. */
function unchangedSinceRead(row: LogFileRow, stat: fs.Stats): boolean {
  return row.seen_size === stat.size && row.seen_mtime === stat.mtimeMs && row.identity === identityOf(stat);
}

/**
 * Reads the event log into a project's database exactly once: each chunk's rows and the file offset that
 * produced them are committed in one transaction, so a crash anywhere leaves either both or neither.
 */
export class Ingestor {
  constructor(
    private readonly store: Store,
    private readonly eventsDir: string,
    private readonly routes: Routes,
    private readonly now: () => number = Date.now,
    /** The parse worker's script; without one, chunks are parsed inline. */
    private readonly parseWorkerFile?: string,
  ) {}

  /** Bytes in the log not yet read by this project (a cheap estimate for deciding to show progress). */
  pendingBytes(): number {
    const rows = this.fileRows();
    let pending = 0;
    for (const { file, stat } of listLogEntries(this.eventsDir).entries) {
      const row = rows.get(file);
      pending += Math.max(0, stat.size - (row && row.offset <= stat.size ? row.offset : 0));
    }
    return pending;
  }

  async ingestAll(options: IngestOptions = {}): Promise<IngestResult> {
    const listing = listLogEntries(this.eventsDir);
    const result: IngestResult = {
      events: 0,
      rejected: 0,
      foreign: 0,
      bytes: 0,
      rewritten: [],
      skipped: listing.skipped,
      workerChunks: 0,
    };
    // One query for all files, and none for a file unchanged since it was read: a folder of 100,000 files.
    const rows = this.fileRows();
    const plans: FilePlan[] = [];
    for (const { file, stat } of listing.entries) {
      const row = rows.get(file);
      if (row && unchangedSinceRead(row, stat)) continue;
      const plan = this.plan(file, row, result.rewritten);
      if (plan) plans.push(plan);
    }
    const progress: IngestProgress = {
      doneBytes: 0,
      totalBytes: plans.reduce((sum, plan) => sum + (plan.stat.size - plan.start), 0),
    };
    const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    const reader =
      this.parseWorkerFile && progress.totalBytes >= PARSE_WORKER_MIN_CHUNKS * chunkBytes
        ? workerReader(this.routes, chunkBytes, this.parseWorkerFile)
        : inlineReader(this.routes, chunkBytes);
    try {
      for (const plan of plans) {
        if (options.signal?.aborted) break;
        await this.ingestFile(plan, reader, options, result, progress);
      }
    } finally {
      result.workerChunks = reader.workerChunks;
      await reader.close();
    }
    return result;
  }

  private fileRows(): Map<string, LogFileRow> {
    const rows = new Map<string, LogFileRow>();
    for (const row of this.store.all<LogFileRow>('SELECT * FROM log_files')) rows.set(row.path, row);
    return rows;
  }

  /**
   * Where to resume in a file. One rewritten after it was read (edited, truncated, replaced: found by its
   * content, not only its size) never has what was read counted twice: reading resumes after the last line
   * read if it is still there, at the cut if the file still starts as it did, and at its start only if
   * nothing of it is recognised. What was done is said in `rewritten`.
   */
  private plan(file: string, known: LogFileRow | undefined, rewritten: string[]): FilePlan | undefined {
    const fd = openLogFile(file);
    if (fd === undefined) return undefined;
    try {
      const stat = fs.fstatSync(fd);
      const identity = identityOf(stat);
      const row =
        known ??
        this.store.get<LogFileRow>('INSERT INTO log_files (path, identity) VALUES (?, ?) RETURNING *', [
          file,
          identity,
        ])!;
      if (row.offset === 0 || sameContent(fd, stat.size, row))
        return { row, stat, identity, start: row.offset };
      let start = findReadEnd(fd, stat.size, row);
      if (start !== undefined) {
        rewritten.push(
          `${file} was changed after it was read: what was read is not counted again, and reading goes on after its last line read.`,
        );
      } else if (stat.size >= row.head_len && hashBytes(readRange(fd, 0, row.head_len)) === row.head_hash) {
        start = nextLineStart(fd, Math.min(stat.size, row.offset), stat.size);
        rewritten.push(
          `${file} was cut short or changed near its end after it was read: what was read is not counted again, and reading goes on from the cut.`,
        );
      } else {
        start = 0;
        rewritten.push(
          `${file} was replaced by other content after it was read: nothing of what was read is in it any more, so it is read from its start.`,
        );
      }
      const resumed = {
        ...row,
        ...(start > 0 ? fingerprintOf(fd, start) : EMPTY_FINGERPRINT),
        offset: start,
      };
      this.store.run(
        `UPDATE log_files SET offset = ?, head_len = ?, head_hash = ?, tail_hash = ?, last_line_len = ?,
           generation = generation + 1 WHERE id = ?`,
        [start, resumed.head_len, resumed.head_hash, resumed.tail_hash, resumed.last_line_len, row.id],
      );
      return { row: resumed, stat, identity, start };
    } finally {
      fs.closeSync(fd);
    }
  }

  private async ingestFile(
    plan: FilePlan,
    reader: ChunkReader,
    options: IngestOptions,
    result: IngestResult,
    progress: IngestProgress,
  ): Promise<void> {
    const fd = openLogFile(plan.row.path);
    if (fd === undefined) return;
    // Replaced since it was planned: the next pass plans it again.
    if (identityOf(fs.fstatSync(fd)) !== plan.identity) {
      fs.closeSync(fd);
      return;
    }
    const rows = new EventRowWriter(this.store);
    let offset = plan.start;
    let reading = reader.read(fd, offset, this.now());
    try {
      for (;;) {
        if (options.signal?.aborted) return;
        const chunk = await reading;
        if (chunk.kind === 'none') {
          // Read to its end as it was when planned: passed over until it changes.
          this.store.run('UPDATE log_files SET seen_size = ?, seen_mtime = ? WHERE id = ?', [
            plan.stat.size,
            plan.stat.mtimeMs,
            plan.row.id,
          ]);
          return;
        }
        // The next chunk is read (and, on a worker, parsed) while this one is written.
        reading = reader.read(fd, offset + chunk.length, this.now());
        reading.catch(() => undefined);
        const { parsed } = chunk;
        const events = parsed.events.length / EVENT_WIDTH;
        const rejected = parsed.rejects.length / REJECT_WIDTH;
        this.store.transaction(() => {
          rows.write(parsed, plan.row.id, this.now());
          const newOffset = offset + chunk.length;
          const fingerprint = fingerprintOf(fd, newOffset);
          this.store.run(
            `UPDATE log_files SET offset = ?, identity = ?, head_len = ?, head_hash = ?, tail_hash = ?,
               last_line_len = ?, lines = lines + ?, foreign_lines = foreign_lines + ? WHERE id = ?`,
            [
              newOffset,
              plan.identity,
              fingerprint.head_len,
              fingerprint.head_hash,
              fingerprint.tail_hash,
              fingerprint.last_line_len,
              events + rejected,
              parsed.foreign,
              plan.row.id,
            ],
          );
        });
        result.events += events;
        result.rejected += rejected;
        result.foreign += parsed.foreign;
        offset += chunk.length;
        result.bytes += chunk.length;
        progress.doneBytes += chunk.length;
        options.onProgress?.({ ...progress });
        await options.afterChunk?.();
        // Let the host's other work run between chunks of a large backlog.
        await yieldToHost();
      }
    } finally {
      await reading.catch(() => undefined);
      fs.closeSync(fd);
    }
  }
}
